/** The Scoring workbench's state: the board shown, the figures and reading chosen, the open run, and the calls that change them. */
import { useEffect, useRef, useState } from "react";
import type { GoldInfo, RunDetail, RunSummary, ScoreBoard } from "@/lib/server/scoring";
import { base, call, FIGURES_PARAM, type FiguresMode, GOLD_PARAM, type GoldChoice, READING_PARAM, type Reading, withFigures, withGold, withReading } from "./client";
import type { Notice } from "./notice";

export type ScoringBoard = ReturnType<typeof useScoringBoard>;

export function useScoringBoard(projectId: number, initialBoard: ScoreBoard) {
  const [board, setBoard] = useState<ScoreBoard>(initialBoard);
  const [mode, setMode] = useState<FiguresMode>(initialBoard.mode);
  const [reading, setReading] = useState<Reading>(initialBoard.reading);
  const gold: GoldChoice = board.gold.id;
  const [goldNotice, setGoldNotice] = useState<Notice>(null);
  const [detail, setDetail] = useState<RunDetail | null>(null);
  const [detailNotice, setDetailNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const api = base(projectId);
  // The board asked for last: an answer to an earlier ask that comes after a later one is dropped.
  const asked = useRef(0);
  // The user's asks still out (a gold chosen, the figures or the reading changed, a run stored or deleted).
  const pending = useRef(0);
  // Looks that have ended (answered, failed or not sent): each ends by arming the next while runs are scored whole.
  const [looks, setLooks] = useState(0);
  // The notice shown is a look's failure, taken away when a later look is answered.
  const lookFailed = useRef(false);

  /** Keep the page's URL saying which gold and figures it shows, so a reload shows the same. */
  function remember(choice: GoldChoice, figures: FiguresMode, read: Reading) {
    const url = new URL(window.location.href);
    if (figures === "repaired") url.searchParams.set(FIGURES_PARAM, "repaired");
    else url.searchParams.delete(FIGURES_PARAM);
    url.searchParams.set(READING_PARAM, read);
    if (choice === null) url.searchParams.delete(GOLD_PARAM);
    else url.searchParams.set(GOLD_PARAM, String(choice));
    window.history.replaceState(null, "", url);
  }

  /**
   * Ask for the board of `choice`. `look`: the table looking again while runs are scored whole. A look never
   * overrides an ask of the user's: none is sent while one is out, and its answer is dropped when one was
   * made since (a look sent with the gold shown, answered after the gold the user chose, put the old one back).
   */
  async function reload(choice: GoldChoice, figures: FiguresMode = mode, read: Reading = reading, look = false): Promise<boolean> {
    if (look && pending.current > 0) return true;
    const ask = look ? asked.current : ++asked.current;
    if (!look) pending.current++;
    let r: Awaited<ReturnType<typeof call<{ board: ScoreBoard }>>>;
    try {
      r = await call<{ board: ScoreBoard }>(withGold(withReading(withFigures(`${api}/results`, figures), read), choice));
    } finally {
      if (!look) pending.current--;
    }
    // A later ask is on its way: its answer is the one to show.
    if (ask !== asked.current) return r.ok;
    if (!r.ok) {
      setGoldNotice({ kind: "error", message: r.message, details: r.details });
      lookFailed.current = look;
      return false;
    }
    if (lookFailed.current) {
      lookFailed.current = false;
      setGoldNotice(null);
    }
    setBoard(r.board);
    remember(r.board.gold.id, figures, read);
    return true;
  }

  async function chooseGold(choice: GoldChoice) {
    setBusy("gold");
    setGoldNotice(null);
    setDetail(null);
    await reload(choice);
    setBusy(null);
  }

  /** Re-score every run (and the open run) in the other mode; the URL keeps the choice for a reload. */
  async function chooseMode(next: FiguresMode) {
    if (next === mode) return;
    const before = mode;
    setBusy("mode");
    setDetailNotice(null);
    setMode(next);
    if (!(await reload(gold, next))) setMode(before);
    else if (detail) await open(detail.run.id, next);
    setBusy(null);
  }

  /** Re-score every run (and the open run) read the other way: as bytes (score.pl) or as UTF-8 text (perl -CSD). */
  async function chooseReading(next: Reading) {
    if (next === reading) return;
    const before = reading;
    setBusy("mode");
    setDetailNotice(null);
    setReading(next);
    if (!(await reload(gold, mode, next))) setReading(before);
    else if (detail) await open(detail.run.id, mode, next);
    setBusy(null);
  }

  // The runs being scored whole in the background (their repaired and UTF-8 figures, #39): the table looks again until they are.
  // Every look that ends arms the next, a failed one too (a look that failed with the board unchanged used to end the looking,
  // the figures never coming until the user asked for something).
  const computing = board.others?.computing === true;
  useEffect(() => {
    if (!computing) return;
    const t = setTimeout(() => void reload(gold, mode, reading, true).finally(() => setLooks((n) => n + 1)), 2000);
    return () => clearTimeout(t);
  }, [board, busy, looks]);

  /** Open a run's figures: from its kept items, a page at a time, or (`whole`) scored whole in the background process. */
  async function open(runId: number, figures: FiguresMode = mode, read: Reading = reading, whole = false) {
    setBusy(`open-${runId}`);
    setDetailNotice(null);
    const r = await call<{ detail: RunDetail }>(withReading(withFigures(`${api}/runs/${runId}${whole ? "?whole=1" : ""}`, figures), read));
    setBusy(null);
    if (!r.ok) {
      setDetailNotice({ kind: "error", message: r.message, details: r.details });
      return;
    }
    setDetail(r.detail);
    requestAnimationFrame(() => document.getElementById("run-detail")?.scrollIntoView({ behavior: "smooth", block: "start" }));
  }

  async function remove(s: RunSummary) {
    if (!window.confirm(`Delete the run “${s.run.name}”? Its file and scores go with it.`)) return;
    setBusy(`delete-${s.run.id}`);
    const r = await call<{ message: string }>(`${api}/runs/${s.run.id}`, { method: "DELETE" });
    if (r.ok) {
      if (detail?.run.id === s.run.id) setDetail(null);
      await reload(gold);
      setDetailNotice({ kind: "ok", message: r.message });
    } else setDetailNotice({ kind: "error", message: r.message });
    setBusy(null);
  }

  async function removeGold(g: GoldInfo) {
    if (g.id === null) return;
    if (!window.confirm(`Delete the stored gold “${g.name}”?`)) return;
    setBusy(`delete-gold-${g.id}`);
    const r = await call<{ message: string }>(`${api}/golds/${g.id}`, { method: "DELETE" });
    if (r.ok) {
      await reload(gold === g.id ? null : gold);
      setGoldNotice({ kind: "ok", message: r.message });
    } else setGoldNotice({ kind: "error", message: r.message });
    setBusy(null);
  }


  return { board, mode, reading, gold, goldNotice, detail, setDetail, detailNotice, busy, reload, chooseGold, chooseMode, chooseReading, open, remove, removeGold, api };
}
