/**
 * Large downloads in small slices (issue #14): a ReadableStream that pulls text
 * from an iterator about 64 KB at a time and yields to the event loop before
 * each slice, so a 100 MB export never holds the request thread for long and
 * is never one string or buffer of its whole size (when its source is an
 * iterator). jsonChunks writes exactly JSON.stringify's text, element by
 * element.
 */
import "server-only";

/** Bytes (UTF-16 code units) gathered before a slice is sent. */
export const SLICE = 64 * 1024;

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/** A stream of UTF-8 bytes from text pieces, pulled a slice at a time as the reader asks. */
export function textStream(pieces: Iterable<string>): ReadableStream<Uint8Array> {
  const it = pieces[Symbol.iterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await yieldToLoop();
        let buf = "";
        while (buf.length < SLICE) {
          const next = it.next();
          if (next.done) {
            if (buf) controller.enqueue(encoder.encode(buf));
            controller.close();
            return;
          }
          buf += next.value;
        }
        controller.enqueue(encoder.encode(buf));
      },
      cancel() {
        it.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}

/** A string cut into slices (never between the halves of a surrogate pair). */
export function* stringSlices(s: string, size = SLICE): Generator<string> {
  for (let i = 0; i < s.length; ) {
    let end = Math.min(s.length, i + size);
    const c = s.charCodeAt(end - 1);
    if (end < s.length && c >= 0xd800 && c <= 0xdbff) end++;
    yield s.slice(i, end);
    i = end;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** JSON.stringify(value)'s text (no indentation), in pieces: arrays and plain objects element by element. */
export function* jsonChunks(value: unknown): Generator<string> {
  let v = value;
  if (v !== null && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON === "function") v = (v as { toJSON: () => unknown }).toJSON();
  if (Array.isArray(v)) {
    yield "[";
    for (let i = 0; i < v.length; i++) {
      if (i > 0) yield ",";
      const x = v[i];
      if (x === undefined || typeof x === "function" || typeof x === "symbol") yield "null";
      else yield* jsonChunks(x);
    }
    yield "]";
    return;
  }
  if (isPlainObject(v)) {
    yield "{";
    let first = true;
    for (const key of Object.keys(v)) {
      const x = v[key];
      if (x === undefined || typeof x === "function" || typeof x === "symbol") continue;
      yield (first ? "" : ",") + JSON.stringify(key) + ":";
      first = false;
      yield* jsonChunks(x);
    }
    yield "}";
    return;
  }
  yield JSON.stringify(v) ?? "null";
}

/** A download streamed in slices (text pieces, or a stream of bytes such as `deriveDownload`'s), with the headers every export sends. */
export function streamedResponse(pieces: Iterable<string> | ReadableStream<Uint8Array>, headers: Record<string, string>): Response {
  const body = pieces instanceof ReadableStream ? pieces : textStream(pieces);
  return new Response(body, { headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", ...headers } });
}

/** Response.json(value)'s body and type, streamed in slices. */
export function streamedJson(value: unknown, headers: Record<string, string> = {}): Response {
  return streamedResponse(jsonChunks(value), { "Content-Type": "application/json", ...headers });
}
