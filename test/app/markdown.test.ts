/**
 * Guidelines and notes (app/annotate/guidelines.tsx): Markdown rendered once
 * per text and reused, raw HTML shown as typed — the same output every time.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MarkdownText } from "../../app/annotate/guidelines";

const html = (text: string) => renderToStaticMarkup(createElement(MarkdownText, { text }));

describe("MarkdownText", () => {
  it("renders Markdown, shows raw HTML as text, and gives the same output when a text comes again", () => {
    const text = "Give **up to three** substitutes.\n\n<script>alert(1)</script> <b>bold?</b>";
    const first = html(text);
    expect(first).toContain("<strong>up to three</strong>");
    expect(first).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(first).not.toContain("<b>");
    expect(html(text)).toBe(first);
  });

  it("renders each text as itself, past the number kept", () => {
    const texts = Array.from({ length: 250 }, (_, i) => `Note *${i}*`);
    for (const t of texts) html(t);
    for (const i of [0, 1, 120, 249]) expect(html(texts[i])).toBe(`<div class="markdown"><p>Note <em>${i}</em></p></div>`);
  });
});
