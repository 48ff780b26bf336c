"use client";
import { useEffect, useRef } from "react";

export interface ShortcutActions {
  /** True while the guidelines dialog is open: it takes the keys then. */
  dialogOpen: () => boolean;
  chooseKind: (kind: "NAME" | "NIL") => void;
  toggleMultiword: () => void;
  /** Null when there is nowhere to go (the key is still taken, doing nothing). */
  skip: (() => void) | null;
  prev: (() => void) | null;
  next: (() => void) | null;
  openGuidelines: () => void;
  toggleFlag: () => void;
  /** A model's suggestion i (0-based) into the answer (Alt+1, Alt+2, Alt+3), when suggestions are on screen. */
  accept?: ((i: number) => void) | null;
  /** Back to the instance saved just before, to revise it after seeing the model's answer there (Alt+R). */
  revisePrevious?: (() => void) | null;
}

/**
 * The workspace's keyboard shortcuts (README, "Annotating"), chosen not to clash
 * with typing: Alt+N / L / M / S / G / F / ← / →, PageUp / PageDown, and "?" and
 * F outside a text field; with a model's suggestions on, Alt+1 / 2 / 3 and Alt+R. The listener is added once; it calls the actions of the
 * latest render.
 */
export function useShortcuts(actions: ShortcutActions) {
  const shortcuts = useRef<(e: KeyboardEvent) => void>(() => {});
  shortcuts.current = (e: KeyboardEvent) => {
    const { chooseKind, toggleMultiword, skip, prev, next, openGuidelines, toggleFlag, accept, revisePrevious } = actions;
    if (e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    if (actions.dialogOpen()) return;
    const t = e.target as HTMLElement | null;
    const typing = !!t && (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && (t as HTMLInputElement).type === "text"));
    const act = (f: () => void) => {
      e.preventDefault();
      if (!e.repeat) f();
    };
    if (e.altKey && !e.shiftKey) {
      switch (e.code) {
        case "KeyN":
          return act(() => chooseKind("NAME"));
        case "KeyL":
          return act(() => chooseKind("NIL"));
        case "KeyM":
          return act(toggleMultiword);
        case "KeyS":
          return skip !== null ? act(skip) : e.preventDefault();
        case "KeyG":
          return act(openGuidelines);
        case "KeyF":
          return act(toggleFlag);
        case "ArrowLeft":
          return prev !== null ? act(prev) : e.preventDefault();
        case "ArrowRight":
          return next !== null ? act(next) : e.preventDefault();
        case "Digit1":
        case "Digit2":
        case "Digit3":
          return accept ? act(() => accept(Number(e.code.slice(5)) - 1)) : undefined;
        case "KeyR":
          return revisePrevious ? act(revisePrevious) : undefined;
      }
      return;
    }
    if (e.altKey) return;
    if (e.key === "PageUp" && prev !== null) return act(prev);
    if (e.key === "PageDown" && next !== null) return act(next);
    if (e.key === "?" && !typing) return act(openGuidelines);
    if ((e.key === "f" || e.key === "F") && !e.shiftKey && !typing && t?.tagName !== "SELECT") return act(toggleFlag);
  };
  useEffect(() => {
    const h = (e: KeyboardEvent) => shortcuts.current(e);
    document.addEventListener("keydown", h);
    return () => document.removeEventListener("keydown", h);
  }, []);
}
