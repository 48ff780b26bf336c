import type { ReactElement } from "react";
import Markdown from "react-markdown";
import { DEFAULT_GUIDELINES } from "./text";

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/** A remark plugin: raw HTML in the Markdown is shown as the text typed, never as markup. */
function htmlAsText() {
  const walk = (n: MdNode) => {
    if (n.type === "html") n.type = "text";
    n.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

const REMARK_PLUGINS = [htmlAsText];

/**
 * Rendered texts, by text: a project's guidelines and notes are rendered on
 * every view of the Training tab and the workspace, and parsing them was 5–10 ms
 * of each server render. React elements are immutable, so one rendering serves
 * every request; the oldest is dropped past RENDERED_MAX.
 */
const rendered = new Map<string, ReactElement>();
const RENDERED_MAX = 200;

function render(text: string): ReactElement {
  let el = rendered.get(text);
  if (el === undefined) {
    el = Markdown({ children: text, remarkPlugins: REMARK_PLUGINS });
    if (rendered.size >= RENDERED_MAX) rendered.delete(rendered.keys().next().value!);
    rendered.set(text, el);
  }
  return el;
}

/**
 * Guidelines and per-lexelt notes, written in Markdown by the coordinator and
 * rendered by react-markdown: raw HTML in the text is shown as text (htmlAsText),
 * links and images go through its default URL filter (no javascript: URLs), and no
 * HTML string is ever injected, so the CSP in proxy.ts holds as it is.
 */
export function MarkdownText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className ?? "markdown"}>
      {render(text)}
    </div>
  );
}

/** The project's guidelines, or the default text when the coordinator wrote none. */
export function Guidelines({ text }: { text: string }) {
  return <MarkdownText text={text.trim() || DEFAULT_GUIDELINES} />;
}

/** The coordinator's note and examples for the current lexelt, beside the sentence (nothing when there is none). */
export function LexeltNote({ note }: { note: string | undefined }) {
  if (!note || note.trim() === "") return null;
  return (
    <aside className="notice" aria-label="Note for this target" data-testid="lexelt-note">
      <MarkdownText text={note} />
    </aside>
  );
}
