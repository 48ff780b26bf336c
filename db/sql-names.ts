/**
 * Names for SQL text, taken from the typed schema: statements that stay SQL text
 * (prepared once on the better-sqlite3 connection, for speed) spell their tables
 * and columns through these, so renaming a column in schema.ts changes the text
 * or fails the type check instead of breaking at run time.
 *
 *   const L = named(lexelts, "l");
 *   `select ${L.id} from ${L.$} where ${L.projectId} = ?`
 *   // select "l"."id" from "lexelts" "l" where "l"."project_id" = ?
 *
 * Without an alias the column names are bare ("project_id"), as SET and INSERT
 * column lists need.
 */
import { getTableColumns, getTableName } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

export type Names<T extends SQLiteTable> = { readonly [K in keyof T["_"]["columns"]]: string } & {
  /** The table for a FROM / JOIN / INSERT / UPDATE clause, with its alias if any. */
  readonly $: string;
};

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function named<T extends SQLiteTable>(table: T, alias?: string): Names<T> {
  const name = getTableName(table);
  const out: Record<string, string> = { $: alias && alias !== name ? `${quote(name)} ${quote(alias)}` : quote(name) };
  for (const [key, column] of Object.entries(getTableColumns(table))) out[key] = alias ? `${quote(alias)}.${quote(column.name)}` : quote(column.name);
  return out as Names<T>;
}
