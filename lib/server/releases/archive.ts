/**
 * A release's .tar.gz: files packed by tar-stream (a maintained tar writer and reader) and
 * compressed by node:zlib. Entries in the order given, each with the release's time, mode 644
 * and no owner, inside the release's one folder; read back into path → bytes.
 */
import "server-only";
import crypto from "node:crypto";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import tar from "tar-stream";

/** Pack the files, gzip them, and give the archive's bytes and SHA-256. */
export async function packArchive(files: ReadonlyArray<{ path: string; content: Buffer }>, mtime: Date): Promise<{ bytes: Buffer; sha256: string }> {
  const pack = tar.pack();
  const gzip = zlib.createGzip({ level: 9 });
  const out = buffer(gzip);
  const done = pipeline(pack, gzip);
  const folders = new Set<string>();
  for (const f of files) {
    const parts = f.path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (folders.has(dir)) continue;
      folders.add(dir);
      await new Promise<void>((resolve, reject) => pack.entry({ name: `${dir}/`, type: "directory", mode: 0o755, mtime }, (e) => (e ? reject(e) : resolve())));
    }
    await new Promise<void>((resolve, reject) => pack.entry({ name: f.path, size: f.content.length, mode: 0o644, mtime }, f.content, (e) => (e ? reject(e) : resolve())));
  }
  pack.finalize();
  await done;
  const bytes = await out;
  return { bytes, sha256: crypto.createHash("sha256").update(bytes).digest("hex") };
}

/**
 * The files of a .tar.gz by path (folders left out): every file, or those `keep` keeps. Files not kept
 * are read past, never held. With `stopAfter`, reading stops once that many files are kept (one file of
 * a release opened from its page: the rest of the archive is not decompressed).
 */
export async function readArchive(bytes: Buffer, keep: (path: string) => boolean = () => true, stopAfter = Infinity): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const extract = tar.extract();
  const done = new AbortController();
  extract.on("entry", (header, stream, next) => {
    const kept = header.type === "file" && keep(header.name);
    const chunks: Buffer[] = [];
    // A damaged archive's error reaches the pipeline (and the caller); the file being read when it came is destroyed
    // with it too, and with no one listening there it was thrown at the process (an uncaught exception).
    stream.on("error", () => {});
    if (kept) stream.on("data", (c: unknown) => chunks.push(c as Buffer));
    stream.on("end", () => {
      if (kept) files.set(header.name, Buffer.concat(chunks));
      if (files.size >= stopAfter) done.abort();
      else next();
    });
    stream.resume();
  });
  try {
    await pipeline(Readable.from([bytes]), zlib.createGunzip(), extract, { signal: done.signal });
  } catch (e) {
    if (!done.signal.aborted) throw e;
  }
  return files;
}
