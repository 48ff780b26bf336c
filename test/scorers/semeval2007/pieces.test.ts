/**
 * A file scored in pieces (a stored run read a piece at a time, #39) scores as the whole text does:
 * the pieces cut anywhere — inside a line, between "\r" and "\n", at a blank line, with or without a
 * final newline — give the same figures, diagnostics, repairs, UTF-8 figures and items.
 */
import { describe, expect, it } from "vitest";
import { scorePieces, scoreTexts } from "../../../lib/scorers/semeval2007/texts";
import type { ItemScore, MwItem } from "../../../lib/scorers/semeval2007/index";

const gold = "calm.a 1 :: still 3;quiet 1;\nhop.v 2 :: jump 2;leap 1;\r\nnaïve.a 3 :: innocent 2;\n";
const systems = [
  "calm.a 1 :: still;quiet\nhop.v 2 :: jump\r\n\nnaïve.a 3 :: innocent\ncalm.a 1 :: again\nbad line\nx.n 9 :: other",
  "calm.a 1 :: quiet\n",
  "",
];

function cuts(text: string, every: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += every) out.push(text.slice(i, i + every));
  return out;
}

describe("a system file scored in pieces", () => {
  for (const system of systems) {
    for (const every of [1, 2, 5, 1000]) {
      it(`equals the whole text (pieces of ${every} characters, ${JSON.stringify(system.slice(0, 20))})`, () => {
        const whole = scoreTexts({ type: "best", system, gold, by: "pos" });
        const items: (ItemScore | MwItem)[] = [];
        const pieces = scorePieces({ type: "best", system: () => cuts(system, every), gold: () => cuts(gold, every + 1), by: "pos", onItem: (i) => items.push(i) });
        const { items: wholeItems, ...rest } = whole;
        expect(pieces).toEqual(rest);
        expect(items).toEqual(wholeItems);
      });
    }
  }
});
