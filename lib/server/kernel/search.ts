/**
 * Searching names in SQL (lexelt items on the overview and the Training tab):
 * a case-insensitive "contains" for ASCII letters (SQLite's LIKE), with LIKE's
 * own wildcards (% and _) and the escape character taken as themselves.
 */
import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** `column` holds `text` (ASCII letters in either case). */
export function containsText(column: SQLiteColumn, text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
  return sql`${column} like ${pattern} escape '\\'`;
}
