/**
 * The datasets' derivation kinds (#43: lib/server/jobs/derive-jobs.ts takes them from this feature's
 * index): the Datasets page's downloads (CoInCo XML, SWORDS JSON, TSAR TSV) and what each cannot
 * carry. Each job carries the actor; the derivation checked it, and exportDataset checks it again.
 */
import type { Db } from "../../../db/client";
import type { DeriveJobBase, DeriveKinds } from "../kernel/derive-kind";
import { type DatasetExport, type DatasetFormat, type SwordsIds, type TsarCells, exportDataset } from "./datasets";

type DatasetJob = DeriveJobBase & { format: DatasetFormat; goldOnly: boolean; cells?: TsarCells; ids?: SwordsIds };

export const DATASETS_DERIVE_KINDS = {
  datasetFile: { run: (db: Db, job: DatasetJob) => exportDataset(db, job.actor, job.projectId, job.format, { goldOnly: job.goldOnly, cells: job.cells, ids: job.ids }) },
  datasetReport: {
    run: (_db: Db, job: DatasetJob, cached: (job: DeriveJobBase & { op: string }) => unknown): Omit<DatasetExport, "text"> => {
      // The file's own cache entry (the same data version): asking for the report after the download, or the other way round, derives once.
      const { text: _text, ...report } = cached({ ...job, op: "datasetFile" }) as DatasetExport;
      return report;
    },
  },
} satisfies DeriveKinds;
