/**
 * Stored runs kept item by item (#39): each id a run answers has one outcome — what it adds to the
 * run's figures (lib/scorers/semeval2007/items.ts) — packed 16 bytes apiece in blocks of 256 by
 * the order of the ids' first lines (run_outcomes). The Scoring board adds them up in that order,
 * which is a whole run's order, so its figures are a whole run's to the last bit; an instance whose
 * gold line changes has its id scored again in every run scored with the project's gold (O(runs)),
 * never a run as a whole.
 */
import "server-only";
import os from "node:os";
import type { Db } from "../../../db/client";
import { goldItems, runItems, runOutcomes, systemRuns } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type ItemOutcome, type KeyTotals, type OutcomeSums, addItemOutcome, keyOfLines, scoreItems, startSums } from "../../scorers/semeval2007/items";
import type { Reading } from "../../scorers/semeval2007/rules";
import type { SystemKind } from "../../scorers/semeval2007/system";
import { all, get, run } from "../kernel/statements";

const SR = named(systemRuns);
const RI = named(runItems);
const RO = named(runOutcomes);
const GI = named(goldItems);

/** Ids per block of outcomes, and the bytes of one outcome. */
export const BLOCK = 256;
const BYTES = 16;

// One outcome: score (f64) at 0, the lines answering the id (u32) at 8, flags (u16) at 12, the group's code (u16) at 14.
const IN_T = 1;
const ATTEMPTED = 2;
const HAS_MODE = 4;
const MODE_HIT = 8;
const UNSCORABLE = 16;
const TRUNCATED = 32;
const REPEATED = 64;
const GENUINE = 128;
const MATCHED = 256;

function encode(buf: Buffer, slot: number, o: ItemOutcome, lines: number, group: number): void {
  const at = slot * BYTES;
  buf.writeDoubleLE(o.score, at);
  buf.writeUInt32LE(lines, at + 8);
  const flags =
    (o.inT ? IN_T : 0) |
    (o.attempted ? ATTEMPTED : 0) |
    (o.hasMode ? HAS_MODE : 0) |
    (o.modeHit ? MODE_HIT : 0) |
    (o.unscorable ? UNSCORABLE : 0) |
    (o.truncated ? TRUNCATED : 0) |
    (o.repeated ? REPEATED : 0) |
    (o.genuine ? GENUINE : 0) |
    (o.matched ? MATCHED : 0);
  buf.writeUInt16LE(flags, at + 12);
  buf.writeUInt16LE(group, at + 14);
}

/** An outcome's flags into `o`. */
function flagsInto(flags: number, o: ItemOutcome): void {
  o.inT = (flags & IN_T) !== 0;
  o.attempted = (flags & ATTEMPTED) !== 0;
  o.hasMode = (flags & HAS_MODE) !== 0;
  o.modeHit = (flags & MODE_HIT) !== 0;
  o.unscorable = (flags & UNSCORABLE) !== 0;
  o.truncated = (flags & TRUNCATED) !== 0;
  o.repeated = (flags & REPEATED) !== 0;
  o.genuine = (flags & GENUINE) !== 0;
  o.matched = (flags & MATCHED) !== 0;
}

/** Read the outcome in `slot` into `o` (one object reused for a whole run); the lines answering its id. */
function decodeInto(buf: Buffer, slot: number, groups: readonly string[], o: ItemOutcome): number {
  const at = slot * BYTES;
  const flags = buf.readUInt16LE(at + 12);
  o.score = buf.readDoubleLE(at);
  flagsInto(flags, o);
  o.group = groups[buf.readUInt16LE(at + 14)] ?? "";
  return buf.readUInt32LE(at + 8);
}

/** A run's groups by code (system_runs.groups), growing as outcomes name new ones. */
class GroupCodes {
  private readonly index: Map<string, number>;
  changed = false;
  constructor(readonly names: string[]) {
    this.index = new Map(names.map((g, i) => [g, i]));
  }
  code(group: string): number {
    let c = this.index.get(group);
    if (c === undefined) {
      c = this.names.length;
      this.names.push(group);
      this.index.set(group, c);
      this.changed = true;
    }
    return c;
  }
}

/**
 * The outcome blocks of a run being written or patched: read on first touch, written back by
 * `flush` (only those touched).
 */
export class OutcomeBlocks {
  private readonly blocks = new Map<number, Buffer>();
  private readonly touched = new Set<number>();
  readonly groups: GroupCodes;

  constructor(
    private readonly db: Db,
    readonly runId: number,
    groups: string[],
  ) {
    this.groups = new GroupCodes(groups);
  }

  private block(b: number): Buffer {
    let buf = this.blocks.get(b);
    if (!buf) {
      const row = get<{ data: Buffer }>(this.db, `select ${RO.data} as data from ${RO.$} where ${RO.runId} = ? and ${RO.block} = ?`, this.runId, b);
      buf = Buffer.alloc(BLOCK * BYTES);
      if (row) row.data.copy(buf);
      this.blocks.set(b, buf);
    }
    return buf;
  }

  /** Set the outcome of the id at `seq` (keeping its lines when `lines` is undefined). */
  set(seq: number, o: ItemOutcome, lines?: number): void {
    const b = Math.floor(seq / BLOCK);
    const buf = this.block(b);
    const slot = seq % BLOCK;
    encode(buf, slot, o, lines ?? buf.readUInt32LE(slot * BYTES + 8), this.groups.code(o.group));
    this.touched.add(b);
  }

  /** One more line answers the id at `seq`. */
  addLine(seq: number): void {
    const b = Math.floor(seq / BLOCK);
    const buf = this.block(b);
    const at = (seq % BLOCK) * BYTES + 8;
    buf.writeUInt32LE(buf.readUInt32LE(at) + 1, at);
    this.touched.add(b);
  }

  /** Write the blocks touched (and the run's groups when new ones were named); blocks not touched again are dropped from memory. */
  flush(keep: (block: number) => boolean = () => false): void {
    for (const b of this.touched) {
      run(
        this.db,
        `insert into ${RO.$} (${RO.runId}, ${RO.block}, ${RO.data}) values (?, ?, ?) on conflict (${RO.runId}, ${RO.block}) do update set ${RO.data} = excluded.${RO.data}`,
        this.runId,
        b,
        this.blocks.get(b)!,
      );
    }
    this.touched.clear();
    for (const b of [...this.blocks.keys()]) if (!keep(b)) this.blocks.delete(b);
    if (this.groups.changed) {
      run(this.db, `update ${SR.$} set ${SR.groups} = ? where ${SR.id} = ?`, JSON.stringify(this.groups.names), this.runId);
      this.groups.changed = false;
    }
  }
}

/** A changed instance of the project: its id and its gold and mwgold lines as the files hold them now (null: none, or excluded). */
export interface GoldChange {
  instanceId: string;
  line: string | null;
  mwLine: string | null;
}

/**
 * Score again, in every run stored with the project's gold, the ids of the instances whose gold
 * changed: their first lines against their new gold lines. Inside the maintenance's transaction.
 */
export function rescoreRunItems(db: Db, projectId: number, changes: readonly GoldChange[], reading: Reading): void {
  if (changes.length === 0) return;
  const runs = all<{ id: number; type: SystemKind; groups: string }>(
    db,
    `select ${SR.id} as id, ${SR.type} as type, ${SR.groups} as groups from ${SR.$} where ${SR.projectId} = ? and ${SR.goldId} is null and ${SR.reading} is not null and ${SR.state} <> 'deleting'`,
    projectId,
  );
  if (runs.length === 0) return;
  const ids = changes.map((c) => c.instanceId);
  for (const r of runs) {
    const items =
      ids.length === 1
        ? all<{ itemId: string; seq: number; line: number; text: string }>(db, `select ${RI.itemId} as itemId, ${RI.seq} as seq, ${RI.line} as line, ${RI.text} as text from ${RI.$} where ${RI.runId} = ? and ${RI.itemId} = ?`, r.id, ids[0])
        : all<{ itemId: string; seq: number; line: number; text: string }>(
            db,
            `select ${RI.itemId} as itemId, ${RI.seq} as seq, ${RI.line} as line, ${RI.text} as text from ${RI.$} where ${RI.runId} = ? and ${RI.itemId} in (select value from json_each(?))`,
            r.id,
            JSON.stringify(ids),
          );
    if (items.length === 0) continue;
    const lines: string[] = [];
    for (const c of changes) {
      const l = r.type === "mw" ? c.mwLine : c.line;
      if (l !== null) lines.push(l);
    }
    const outcomes = scoreItems(r.type, keyOfLines(r.type, lines, reading), items, reading);
    const blocks = new OutcomeBlocks(db, r.id, JSON.parse(r.groups) as string[]);
    items.forEach((it, k) => blocks.set(it.seq, outcomes[k]));
    blocks.flush();
  }
}

/** The current gold and mwgold lines of some ids of the project (lines of excluded instances are not in the files). */
export function projectGoldLines(db: Db, projectId: number, ids: readonly string[]): Map<string, { line: string | null; mwLine: string | null }> {
  if (ids.length === 0) return new Map();
  return new Map(
    all<{ id: string; line: string | null; mwLine: string | null; excluded: number }>(
      db,
      `select ${GI.instanceId} as id, ${GI.line} as line, ${GI.mwLine} as mwLine, ${GI.excluded} as excluded from ${GI.$} where ${GI.projectId} = ? and ${GI.instanceId} in (select value from json_each(?))`,
      projectId,
      JSON.stringify(ids),
    ).map((r) => [r.id, r.excluded ? { line: null, mwLine: null } : { line: r.line, mwLine: r.mwLine }]),
  );
}

/** Add up a stored run's outcomes in order (its figures as a whole run gives them), from its key's totals. */
export function sumRunOutcomes(db: Db, runId: number, type: SystemKind, totals: KeyTotals): OutcomeSums {
  return scanRunOutcomes(db, runId, type, totals);
}

/**
 * `sumRunOutcomes`, showing each id's outcome to `visit` on the way (its place, its outcome — one
 * object reused, so read it there — and the lines answering it): a run's figures page finds its
 * attempted items while it adds them up, one block of 256 outcomes in memory at a time.
 */
export function scanRunOutcomes(db: Db, runId: number, type: SystemKind, totals: KeyTotals, visit?: (seq: number, o: ItemOutcome, lines: number) => void): OutcomeSums {
  const meta = get<{ items: number; groups: string }>(db, `select ${SR.items} as items, ${SR.groups} as groups from ${SR.$} where ${SR.id} = ?`, runId)!;
  const groups = JSON.parse(meta.groups) as string[];
  const sums = startSums(totals);
  const read = db.$client.prepare(`select ${RO.block} as block, ${RO.data} as data from ${RO.$} where ${RO.runId} = ? order by ${RO.block}`);
  const o: ItemOutcome = { inT: false, attempted: false, score: 0, hasMode: false, modeHit: false, unscorable: false, truncated: false, repeated: false, genuine: false, matched: false, group: "" };
  const views = LITTLE_ENDIAN ? new BlockViews() : null;
  for (const { block, data } of read.iterate(runId) as Iterable<{ block: number; data: Buffer }>) {
    views?.load(data);
    for (let slot = 0; slot < BLOCK; slot++) {
      const seq = block * BLOCK + slot;
      if (seq >= meta.items) break;
      const lines = views ? views.decodeInto(slot, groups, o) : decodeInto(data, slot, groups, o);
      addItemOutcome(sums, type, o, lines);
      visit?.(seq, o, lines);
    }
  }
  return sums;
}

/** Typed arrays read in the machine's byte order: the outcomes are written little-endian. */
const LITTLE_ENDIAN = os.endianness() === "LE";

/**
 * A block of outcomes read through typed arrays over one aligned copy (a Buffer from SQLite may sit at any
 * offset): a run of 1,000,000 ids is added up for every board and figures page, and Buffer's readDoubleLE
 * and kin were most of that time.
 */
class BlockViews {
  private readonly bytes = new Uint8Array(BLOCK * BYTES);
  private readonly f64 = new Float64Array(this.bytes.buffer);
  private readonly u32 = new Uint32Array(this.bytes.buffer);
  private readonly u16 = new Uint16Array(this.bytes.buffer);

  load(data: Uint8Array): void {
    this.bytes.set(data.length > this.bytes.length ? data.subarray(0, this.bytes.length) : data);
    if (data.length < this.bytes.length) this.bytes.fill(0, data.length);
  }

  /** decodeInto's reading of the slot. */
  decodeInto(slot: number, groups: readonly string[], o: ItemOutcome): number {
    const flags = this.u16[slot * 8 + 6];
    o.score = this.f64[slot * 2];
    flagsInto(flags, o);
    o.group = groups[this.u16[slot * 8 + 7]] ?? "";
    return this.u32[slot * 4 + 2];
  }
}
