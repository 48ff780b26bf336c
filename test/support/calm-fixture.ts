/**
 * A small project, shared by the gold and adjudication server tests (each works
 * out its own figures from it): calm.a c1, c2 and hop.v h1; annotators ann, bea,
 * cat (coord coordinates).
 *   c1: still;peaceful · still;tranquil · serene      c2: NAME · NAME · NIL
 *   h1: jumps;skip + "hop about" · jump + "hop about" · skip
 * The gold writes `jumps` as typed until the coordinator decides it;
 * `calmProject({ acceptProposals: true })` has the coordinator accept its proposal
 * (jumps → jump), for the figures worked out over lemmatised sets.
 */
import { acceptAllProposals } from "../../lib/server/gold/gold";
import { importLexeltXml } from "../../lib/server/corpus/corpus";
import { importResponses } from "../../lib/server/annotate/response-import";
import { addMember } from "../../lib/server/people/users";
import { actorFor, projectFixture } from "./db";

export const calmXml = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="calm.a">
<instance id="c1"><context>a <head>calm</head> sea at dawn</context></instance>
<instance id="c2"><context>the <head>Calm</head> Hotel</context></instance>
</lexelt>
<lexelt item="hop.v">
<instance id="h1"><context>the birds <head>hop</head> about the lawn</context></instance>
</lexelt>
</corpus>
`;

export const calmTsv = [
  "annotator\tlexelt\tinstance\tanswer\tmultiword",
  "ann\tcalm.a\tc1\tstill;peaceful\t",
  "bea\tcalm.a\tc1\tstill;tranquil\t",
  "cat\tcalm.a\tc1\tserene\t",
  "ann\tcalm.a\tc2\tNAME\t",
  "bea\tcalm.a\tc2\tNAME\t",
  "cat\tcalm.a\tc2\tNIL\t",
  "ann\thop.v\th1\tjumps;skip\thop about",
  "bea\thop.v\th1\tjump\thop about",
  "cat\thop.v\th1\tskip\t",
].join("\n");

/** The project with the corpus loaded and the three annotators' answers imported (and the lemma proposals accepted, when asked). */
export function calmProject(opts: { acceptProposals?: boolean } = {}) {
  const f = projectFixture();
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(calmXml) });
  for (const n of ["bea", "cat"]) {
    actorFor(f.db, n, "annotator");
    addMember(f.db, f.coord, f.project.id, n);
  }
  importResponses(f.db, f.coord, f.project.id, { fileName: "r.tsv", text: calmTsv });
  // Recorded as the coordinator's decision, only for the forms a proposal changes (jumps).
  if (opts.acceptProposals) acceptAllProposals(f.db, f.coord, f.project.id, { changedOnly: true });
  return f;
}
