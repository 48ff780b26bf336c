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
}

/**
 * The workspace's keyboard shortcuts (README, "Annotating"), chosen not to clash
 * with typing: Alt+N / L / M / S / G / F / ← / →, PageUp / PageDown, and "?" and
 * F outside a text field. The listener is added once; it calls the actions of the
 * latest render.
 */
export function useShortcuts(actions: ShortcutActions) {
  const shortcuts = useRef<(e: KeyboardEvent) => void>(() => {});
  shortcuts.current = (e: KeyboardEvent) => {
    const { chooseKind, toggleMultiword, skip, prev, next, openGuidelines, toggleFlag } = actions;
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
