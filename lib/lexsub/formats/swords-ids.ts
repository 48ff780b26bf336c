/**
 * SWORDS's ids, as its code makes them (swords/__init__.py, `_dict_checksum`, the
 * `context_id`, `target_id` and `substitute_id` class methods) and as eval.py's
 * loader (`LexSubDataset.from_dict`) asserts them: the SHA-1 hex digest of the UTF-8
 * bytes of `json.dumps(d, sort_keys=True)` (Python's defaults: `", "` and `": "` as
 * separators, ensure_ascii, so every character outside space…`~` is written `\uXXXX`
 * in lower-case hex, a character beyond U+FFFF as its two UTF-16 halves), where d is
 *
 * - context:    `c:` + checksum of `{"context": context}` (case kept);
 * - target:     `t:` + checksum of `{"context_id": cid, "offset": offset, "pos": pos name or null,
 *               "target": target lower-cased}`, offset counted in code points (Python's);
 * - substitute: `s:` + checksum of `{"substitute": substitute lower-cased, "target_id": tid}`.
 *
 * Lower-casing is JavaScript's `toLowerCase`, Unicode's default full mapping, which
 * is Python's `str.lower` (both without a locale). Pure: the caller brings SHA-1.
 */

/** SHA-1 of a string's UTF-8 bytes, as lower-case hex. */
export type Sha1Hex = (s: string) => string;

/** Python's `json.dumps` of a string (ensure_ascii). */
function pyJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i];
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    // charCodeAt walks UTF-16 units: a character beyond U+FFFF comes out as its two halves, as Python writes it.
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return out + '"';
}

/** `json.dumps(d, sort_keys=True)` of a flat object whose entries are given in sorted key order. */
function swordsChecksummed(entries: readonly [string, string | number | null][]): string {
  return `{${entries.map(([k, v]) => `${pyJsonString(k)}: ${v === null ? "null" : typeof v === "number" ? String(v) : pyJsonString(v)}`).join(", ")}}`;
}

/** A context's id. */
export function swordsContextId(sha1: Sha1Hex, context: string): string {
  return `c:${sha1(swordsChecksummed([["context", context]]))}`;
}

/** A target's id: `offset` in code points, `pos` the PoS name (NOUN…) or null. */
export function swordsTargetId(sha1: Sha1Hex, t: { contextId: string; target: string; offset: number; pos: string | null }): string {
  return `t:${sha1(swordsChecksummed([["context_id", t.contextId], ["offset", t.offset], ["pos", t.pos], ["target", t.target.toLowerCase()]]))}`;
}

/** A substitute's id. */
export function swordsSubstituteId(sha1: Sha1Hex, s: { targetId: string; substitute: string }): string {
  return `s:${sha1(swordsChecksummed([["substitute", s.substitute.toLowerCase()], ["target_id", s.targetId]]))}`;
}

/** Code points in a string (Python's `len`, the unit of SWORDS offsets). */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The UTF-16 index of the code point at `offset` in `s`, or -1 when `s` has fewer code points. */
export function utf16Index(s: string, offset: number): number {
  let i = 0;
  for (let k = 0; k < offset; k++) {
    if (i >= s.length) return -1;
    const c = s.codePointAt(i)!;
    i += c > 0xffff ? 2 : 1;
  }
  return i <= s.length ? i : -1;
}
