/**
 * A small project with hand-checkable answers, shared by the Gold and Agreement
 * page tests (each file works out its own figures from it):
 *   calm.a c1, c2 and hop.v h1, h2; annotators ann, bea, cat (coord coordinates).
 *   c1: still;peaceful · still;tranquil · serene      c2: NAME · NAME · NIL
 *   h1: jumps;skip + "hop about" · jump + "hop about" · skip      h2: ann board
 * The gold writes `jumps` as typed until the coordinator decides it;
 * `goldFixture(file, { acceptProposals: true })` has the coordinator accept its
 * proposal (jumps → jump), for the figures worked out over lemmatised sets.
 */
import { acceptAllProposals } from "../../lib/server/gold/gold";
import { importLexeltXml } from "../../lib/server/corpus/corpus";
import { importResponses } from "../../lib/server/annotate/response-import";
import { addMember } from "../../lib/server/people/users";
import { actorFor, projectFixture } from "./db";

const goldFixtureXml = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="calm.a">
<instance id="c1"><context>a <head>calm</head> sea at dawn</context></instance>
<instance id="c2"><context>the <head>Calm</head> Hotel</context></instance>
</lexelt>
<lexelt item="hop.v">
<instance id="h1"><context>the birds <head>hop</head> about the lawn</context></instance>
<instance id="h2"><context>they <head>hop</head> on a bus</context></instance>
</lexelt>
</corpus>
`;

const goldFixtureTsv = [
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
  "ann\thop.v\th2\tboard\t",
].join("\n");

/** projectFixture() with the corpus and responses above loaded; bea and cat are members too (and the lemma proposals accepted, when asked). */
export function goldFixture(file?: string, opts: { acceptProposals?: boolean } = {}) {
  const f = projectFixture(file);
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(goldFixtureXml) });
  for (const n of ["bea", "cat"]) {
    actorFor(f.db, n, "annotator");
    addMember(f.db, f.coord, f.project.id, n);
  }
  importResponses(f.db, f.coord, f.project.id, { fileName: "r.tsv", text: goldFixtureTsv });
  // Recorded as the coordinator's decision, only for the forms a proposal changes (jumps).
  if (opts.acceptProposals) acceptAllProposals(f.db, f.coord, f.project.id, { changedOnly: true });
  return f;
}
