/** Instances a dataset reader gave, as the export writers take them (nothing excluded, no derived entries). */
import type { DatasetInstance, ExportItem } from "../../lib/lexsub/formats/dataset";

export function asExportItems(instances: readonly DatasetInstance[]): ExportItem[] {
  return instances.map((i) => ({
    lexelt: i.lexelt,
    instanceId: i.instanceId,
    before: i.before,
    head: i.head,
    after: i.after,
    excluded: null,
    meta: i.meta,
    imported: i.entries,
    derived: [],
    mwEntries: [],
  }));
}
