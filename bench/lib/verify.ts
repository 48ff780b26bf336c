/**
 * After a run (or a kill): open the database the server wrote and check it —
 * PRAGMA integrity_check, every acknowledged save present exactly once, and no
 * half-written import.
 */
import Database from "better-sqlite3";
import { type AckedSave, type AckReport, type StoredRow, checkAcknowledged } from "./acks";

export function integrityCheck(dbFile: string): string {
  const db = new Database(dbFile, { readonly: true });
  try {
    const rows = db.pragma("integrity_check") as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).join("; ");
  } finally {
    db.close();
  }
}

export function checkSaves(dbFile: string, projectId: number, acked: readonly AckedSave[]): AckReport {
  const db = new Database(dbFile, { readonly: true });
  try {
    const cols = "user_id AS userId, instance_ref AS instanceRef, revision, kind, substitutes, multiword";
    const history = db.prepare(`SELECT ${cols} FROM response_history WHERE project_id = ?`).all(projectId) as StoredRow[];
    const current = db.prepare(`SELECT ${cols} FROM responses WHERE project_id = ?`).all(projectId) as StoredRow[];
    return checkAcknowledged(acked, history, current);
  } finally {
    db.close();
  }
}

export interface ImportAttempt {
  fileName: string;
  /** Instance ids in the file (all share a prefix no other file uses). */
  instanceIds: string[];
  /** The server answered 200 with a report before the kill. */
  acknowledged: boolean;
}

export interface ImportCheck {
  fileName: string;
  /** all: the import row and every instance; none: nothing of it; partial: anything else. */
  state: "all" | "none" | "partial";
  instancesFound: number;
  importRows: number;
  acknowledged: boolean;
}

/** Each attempted import is either wholly in the database (one imports row, every instance) or wholly absent. */
export function checkImports(dbFile: string, projectId: number, attempts: readonly ImportAttempt[]): ImportCheck[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    // Visible instances only: an import being written keeps its lexelts in a holding project until it publishes.
    const countInstances = db.prepare(
      "SELECT count(*) AS n FROM instances i JOIN lexelts l ON l.id = i.lexelt_id AND l.project_id = i.project_id WHERE i.project_id = ? AND i.instance_id = ?",
    );
    const importRows = db.prepare("SELECT id, instances_added AS added FROM imports WHERE project_id = ? AND file_name = ?");
    const linked = db.prepare("SELECT count(*) AS n FROM instances WHERE import_id = ?");
    return attempts.map((a) => {
      const found = a.instanceIds.reduce((n, id) => n + (countInstances.get(projectId, id) as { n: number }).n, 0);
      const rows = importRows.all(projectId, a.fileName) as Array<{ id: number; added: number }>;
      const complete =
        found === a.instanceIds.length &&
        rows.length === 1 &&
        rows[0].added === a.instanceIds.length &&
        (linked.get(rows[0].id) as { n: number }).n === a.instanceIds.length;
      const state = complete ? "all" : found === 0 && rows.length === 0 ? "none" : "partial";
      return { fileName: a.fileName, state, instancesFound: found, importRows: rows.length, acknowledged: a.acknowledged };
    });
  } finally {
    db.close();
  }
}
