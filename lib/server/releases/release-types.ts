/**
 * What a release records about itself (releases.summary, JSON) and the datasheet's questions the
 * coordinator answers (release_datasheets.answers). Types and constants only.
 */
import type { Interval } from "../../lexsub/agreement";

/** The datasheet's questions the app cannot answer itself (Gebru et al., "Datasheets for Datasets"), edited on the Releases tab. */
export const DATASHEET_QUESTIONS = [
  { key: "title", section: "Citation", label: "Title", question: "The dataset's title, as it is to be cited (default: the project's name)." },
  { key: "authors", section: "Citation", label: "Authors", question: "Who created the dataset? One name per line, as it is to be cited (family name, given names)." },
  { key: "licence", section: "Distribution", label: "Licence", question: "Under what licence is it distributed? An SPDX identifier, e.g. CC-BY-4.0." },
  { key: "motivation", section: "Motivation", label: "Motivation", question: "For what purpose was the dataset created, who created it on behalf of whom, and who funded it?" },
  { key: "collection", section: "Collection process", label: "Collection", question: "How were the sentences chosen, and how were the annotators recruited, trained and paid? Was there an ethical review, and did the annotators consent?" },
  { key: "uses", section: "Uses", label: "Uses", question: "What is the dataset for, what has it been used for, and what should it not be used for?" },
  { key: "maintenance", section: "Maintenance", label: "Maintenance", question: "Who maintains the dataset, how can they be reached, and how will errors be corrected?" },
] as const;

export type DatasheetKey = (typeof DATASHEET_QUESTIONS)[number]["key"];
export type DatasheetAnswers = Partial<Record<DatasheetKey, string>>;

/** The longest answer kept for one question (characters). */
export const MAX_DATASHEET_ANSWER = 20_000;

/** What may be put into a release besides the anonymised answers (off unless asked). */
export interface ReleaseInclude {
  /** Account names beside the pseudonyms (a crowd participant's name carries their platform id). */
  names?: boolean;
  /** The annotators' flags and notes on the instances. */
  notes?: boolean;
}

/** The figures a release states, and compares with the previous one. */
export interface ReleaseFacts {
  lexelts: number;
  instances: number;
  excludedInstances: number;
  goldLines: number;
  mwgoldLines: number;
  answers: number;
  countedAnswers: number;
  leftOutAnswers: number;
  annotators: number;
  participants: number;
  /** Answers per instance not excluded: the fewest, the median, the most. */
  overlap: { min: number; median: number; max: number };
  trainingItems: number;
  attentionChecks: number;
  trainingRequired: boolean;
  trainingPassMark: number;
  trainingPassed: number;
  trainingFailed: number;
  adjudications: number;
  lemmaDecisions: number;
  judgementRounds: number;
  firstAnswer: number | null;
  lastAnswer: number | null;
  agreement: {
    items: number;
    pairs: number;
    pairwise: number | null;
    pairwiseInterval: Interval | null;
    modeAgreement: number | null;
    alphaMasi: number | null;
    alphaInterval: Interval | null;
  };
}

/** What changed since the release before this one (computed when it was made, from that release's own files). */
export interface ReleaseChanges {
  previous: string;
  instances: { added: number; removed: number; addedIds: string[]; removedIds: string[] };
  goldLines: { added: number; removed: number; changed: number; examples: Array<{ instanceId: string; before: string | null; after: string | null }> };
  facts: { before: ReleaseFacts; after: ReleaseFacts };
}

export interface ReleaseSummary {
  project: string;
  version: string;
  language: string;
  /** The folder every file sits in inside the archive. */
  folder: string;
  include: Required<ReleaseInclude>;
  facts: ReleaseFacts;
  changes: ReleaseChanges | null;
  /** What each dataset format could not carry, by format. */
  losses: Record<string, string[]>;
}

export interface ManifestEntry {
  path: string;
  bytes: number;
  sha256: string;
}
