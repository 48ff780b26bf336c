/**
 * The Scoring page's reading of the files (issue #30): as bytes by default, as
 * score.pl reads them, with the UTF-8 figures beside a run where they differ;
 * as UTF-8 text (`perl -CSD score.pl`) on request, in the table, a run's
 * detail and the JSON download.
 */
import { describe, expect, it } from "vitest";
import { InputError } from "../../../lib/server/kernel/errors";
import { type GoldSource, storeGold } from "../../../lib/server/scoring/golds";
import { uploadRun } from "../../../lib/server/scoring/runs";
import { runDetail, scoreBoard, scoresJson } from "../../../lib/server/scoring/scores";
import { readingOf } from "../../../app/api/projects/[projectId]/scoring/mode";
import { projectFixture } from "../../support/db";
import { setProjectLanguage } from "../../../lib/server/corpus/project-lifecycle";

const enc = (s: string) => new TextEncoder().encode(s);

// Read as UTF-8: 1 has pequeño 3, chico 1 (|H| 4, mode pequeño); 2 has caída 2, descenso 1 (|H| 3, mode caída).
// The run answers pequeño (3/4, mode hit) and caída (2/3, mode hit): P = (3/4 + 2/3)/2 = 17/24, Mode P 1.
// Read as bytes: 1 reads only chico 1 (mode chico), 2 reads "da 2" and descenso 1 (mode "da"): both answers earn 0.
const GOLD = ["niño.n 1 :: pequeño 3;chico 1;", "caer.v 2 :: caída 2;descenso 1;", ""].join("\n");
const RUN = ["niño.n 1 :: pequeño", "caer.v 2 :: caída", ""].join("\n");

function fixture() {
  const f = projectFixture();
  const gold = storeGold(f.db, f.coord, f.project.id, { gold: { name: "es.gold", text: GOLD }, mwgold: null }).id!;
  const run = uploadRun(f.db, f.coord, f.project.id, { fileName: "oracle.best", bytes: enc(RUN), gold }).run;
  const source: GoldSource = { kind: "stored", id: gold };
  return { ...f, run, source };
}

type Figures = Record<string, number | null>;
const fig = (x: unknown) => x as Figures;

describe("the Scoring page's reading of the files", () => {
  it("by default: score.pl's byte figures, and the UTF-8 figures beside the run", () => {
    const f = fixture();
    const board = scoreBoard(f.db, f.coord, f.project.id, f.source);
    expect(board.reading).toBe("bytes");
    const [s] = board.runs;
    expect(fig(s.figures).precision).toBe(0);
    expect(s.utf8).not.toBeNull();
    const u = fig(s.utf8);
    expect(u.precision).toBe((3 / 4 + 2 / 3) / 2);
    expect(u.modePrecision).toBe(1);
    const json = scoresJson(f.db, f.coord, f.project.id, f.source);
    expect(json.reading).toBe("bytes");
    expect(fig((json.runs[0] as unknown as { utf8?: { figures: unknown } }).utf8?.figures).modePrecision).toBe(1);
  });

  it("a project in another language than English reads the files as UTF-8 text unless asked otherwise", () => {
    const f = fixture();
    setProjectLanguage(f.db, f.coord, f.project.id, { language: "es" });
    const board = scoreBoard(f.db, f.coord, f.project.id, f.source);
    expect(board.reading).toBe("utf8");
    expect(fig(board.runs[0].figures).modePrecision).toBe(1);
    expect(scoresJson(f.db, f.coord, f.project.id, f.source).reading).toBe("utf8");
    expect(runDetail(f.db, f.coord, f.project.id, f.run.id).report).toContain("Mode precision = 100.00");
    // Asked for, the bytes: score.pl's own figures.
    expect(scoreBoard(f.db, f.coord, f.project.id, f.source, { reading: "bytes" }).reading).toBe("bytes");
  });

  it("read as UTF-8: those figures in the table, the detail and the download, with nothing beside them", () => {
    const f = fixture();
    const mode = { reading: "utf8" as const };
    const board = scoreBoard(f.db, f.coord, f.project.id, f.source, mode);
    expect(board.reading).toBe("utf8");
    const [s] = board.runs;
    expect(fig(s.figures).precision).toBe((3 / 4 + 2 / 3) / 2);
    expect(s.utf8).toBeNull();
    const detail = runDetail(f.db, f.coord, f.project.id, f.run.id, mode);
    expect(detail.report).toContain("Mode precision = 100.00, Mode recall = 100.00");
    const json = scoresJson(f.db, f.coord, f.project.id, f.source, mode);
    expect(json.reading).toBe("utf8");
    expect(fig((json.runs[0] as unknown as { scores: unknown }).scores).modePrecision).toBe(1);
  });

  it("the routes' ?reading= takes bytes or utf8 (absent: the project's default) and refuses anything else", () => {
    expect(readingOf(null)).toBeUndefined();
    expect(readingOf("bytes")).toBe("bytes");
    expect(readingOf("utf8")).toBe("utf8");
    expect(() => readingOf("latin1")).toThrow(InputError);
  });
});
