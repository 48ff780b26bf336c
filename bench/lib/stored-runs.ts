/**
 * System runs for bench:pages: files of N lines written to disk a buffer at a time (plain or gzip),
 * answering each instance of the project once, in queue order, with words of the vocabulary the
 * prefilled answers use (bench/lib/seed.ts), then ids outside the gold up to N lines (a run made
 * for a larger set, scored on this one: the scorer reads and ignores those lines); and the upload
 * of such a file through the route the Scoring page posts to, streamed from disk as a multipart
 * body (node:http, no timeout: the route answers when the jobs worker has stored the run).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import zlib from "node:zlib";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { openDb } from "../../db/client";
import { mulberry32 } from "../../lib/lexsub/agreement/bootstrap";

/** "lexelt instanceId" of every instance of the project, with its lexelt's id (for the vocabulary), in queue order. */
export function instanceIds(dbFile: string, projectId: number): Array<{ item: string; id: string; lexeltId: number }> {
  const db = openDb(dbFile);
  try {
    return db.$client
      .prepare("select l.item as item, i.instance_id as id, l.id as lexeltId from instances i join lexelts l on l.id = i.lexelt_id where i.project_id = ? order by l.position, i.position")
      .all(projectId) as Array<{ item: string; id: string; lexeltId: number }>;
  } finally {
    db.$client.close();
  }
}

/** Write a run of `lines` lines of `type` to `file` (gzip when it ends in .gz). Returns its size in bytes. */
export async function writeRunFile(
  file: string,
  ids: ReadonlyArray<{ item: string; id: string; lexeltId: number }>,
  lines: number,
  type: "best" | "oot",
  seed: number,
): Promise<number> {
  const rand = mulberry32(seed);
  const per = type === "best" ? 2 : 6;
  function* text(): Generator<string> {
    let buf = "";
    for (let i = 0; i < lines; i++) {
      const known = i < ids.length;
      const lexeltId = known ? ids[i].lexeltId : i;
      const words: string[] = [];
      for (let k = 0; k < per; k++) {
        const w = `word${(lexeltId * 7 + Math.floor(rand() * 8) * 13) % 5000}`;
        if (!words.includes(w)) words.push(w);
      }
      buf += `${known ? ids[i].item : `extra${i % 997}.n`} ${known ? ids[i].id : `x${i}`} ${type === "best" ? "::" : ":::"} ${words.join(";")}\n`;
      if (buf.length > 1 << 20) {
        yield buf;
        buf = "";
      }
    }
    if (buf) yield buf;
  }
  const out = fs.createWriteStream(file);
  if (file.endsWith(".gz")) await pipeline(Readable.from(text()), zlib.createGzip(), out);
  else await pipeline(Readable.from(text()), out);
  return fs.statSync(file).size;
}

/** POST the file to /api/projects/ID/scoring/runs as the Scoring page does; resolves with the status and the answer's JSON. */
export function uploadRunFile(base: string, cookie: string, projectId: number, file: string, type: string): Promise<{ status: number; body: { ok?: boolean; message?: string } }> {
  const url = new URL(`${base}/api/projects/${projectId}/scoring/runs`);
  const boundary = `----lexgoldbench${crypto.randomBytes(8).toString("hex")}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const name = file.split("/").pop()!;
  const head = Buffer.from(
    field("type", type) + field("name", name) + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = fs.statSync(file).size;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        method: "POST",
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: {
          Cookie: cookie,
          Origin: base,
          Accept: "application/json",
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": head.length + size + tail.length,
        },
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (data += c));
        res.on("end", () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) as { ok?: boolean; message?: string } });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: { ok: false, message: data.slice(0, 300) } });
          }
        });
      },
    );
    req.on("error", reject);
    req.write(head);
    const stream = fs.createReadStream(file, { highWaterMark: 1 << 20 });
    stream.on("error", reject);
    stream.on("end", () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}
