/**
 * Server-action forms as a browser without JavaScript sees and posts them (#38): the forms of a
 * server-rendered page, read from its HTML, and the multipart POST a browser makes when one of
 * their submit buttons is pressed — the form's own fields ($ACTION_… included) with their initial
 * values, checked boxes only, the pressed button's name and value.
 *
 * React renders its HTML in one regular shape (attributes in double quotes, escaped text), which
 * is all this reads; it is no general HTML parser.
 */

interface NativeField {
  name: string;
  value: string | File;
}

export interface NativeButton {
  text: string;
  /** Its aria-label, else its text. */
  label: string;
  name: string | null;
  value: string;
  disabled: boolean;
}

export interface NativeForm {
  /** aria-label, else the text of the first submit button. */
  label: string;
  method: string;
  /** Where it is sent (null: no action attribute, the page itself), and how (its enctype). */
  action: string | null;
  enctype: string;
  /**
   * Neither a method nor an action nor a server action's fields: a form only the page's script can
   * send (posted natively it would only load the page again, its fields in the URL).
   */
  scriptOnly: boolean;
  /** The action id field ($ACTION_ID_… or $ACTION_REF_…): a server-action form has one. */
  serverAction: boolean;
  fields: NativeField[];
  buttons: NativeButton[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
    if (e[0] === "#") return String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e] ?? m;
  });
}

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  const body = tag.replace(/^<\w+/, "").replace(/\/?>$/, "");
  for (const m of body.matchAll(/([^\s"'=<>`]+)(?:="([^"]*)")?/g)) out.set(m[1].toLowerCase(), decodeEntities(m[2] ?? ""));
  return out;
}

const textOf = (html: string) => decodeEntities(html.replace(/<[^>]*>/g, "")).replace(/\s+/g, " ").trim();

/** Every <form> of the page, its fields in document order; then the submit buttons outside it that name it (form="its id"). */
export function formsIn(html: string): NativeForm[] {
  const forms: NativeForm[] = [];
  const byId = new Map<string, NativeForm>();
  for (const m of html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/g)) {
    const attrs = attributes(/^<form\b[^>]*>/.exec(m[0])![0]);
    const fields: NativeField[] = [];
    const buttons: NativeButton[] = [];
    // Inputs, textareas, selects and buttons, in the order they appear.
    for (const el of m[1].matchAll(/<input\b[^>]*>|<textarea\b[^>]*>[\s\S]*?<\/textarea>|<select\b[^>]*>[\s\S]*?<\/select>|<button\b[^>]*>[\s\S]*?<\/button>/g)) {
      const html = el[0];
      const a = attributes(/^<\w+\b[^>]*>/.exec(html)![0]);
      const name = a.get("name") ?? null;
      const disabled = a.has("disabled");
      if (html.startsWith("<button")) {
        if ((a.get("type") ?? "submit") === "submit") buttons.push({ text: textOf(html), label: a.get("aria-label") ?? textOf(html), name, value: a.get("value") ?? "", disabled });
        continue;
      }
      if (!name || disabled) continue;
      if (html.startsWith("<input")) {
        const type = (a.get("type") ?? "text").toLowerCase();
        if (type === "submit" || type === "button" || type === "reset" || type === "image") continue;
        if ((type === "checkbox" || type === "radio") && !a.has("checked")) continue;
        if (type === "file") fields.push({ name, value: new File([], "", { type: "application/octet-stream" }) });
        else fields.push({ name, value: a.get("value") ?? (type === "checkbox" || type === "radio" ? "on" : "") });
      } else if (html.startsWith("<textarea")) {
        fields.push({ name, value: decodeEntities(/^<textarea\b[^>]*>([\s\S]*?)<\/textarea>$/.exec(html)![1]).replace(/^\n/, "") });
      } else {
        const options = [...html.matchAll(/<option\b[^>]*>([\s\S]*?)<\/option>/g)].map((o) => {
          const oa = attributes(/^<option\b[^>]*>/.exec(o[0])![0]);
          return { value: oa.get("value") ?? textOf(o[1]), selected: oa.has("selected") };
        });
        const chosen = options.find((o) => o.selected) ?? options[0];
        if (chosen) fields.push({ name, value: chosen.value });
      }
    }
    const serverAction = fields.some((f) => /^\$ACTION_(ID_|REF_)/.test(f.name));
    const form: NativeForm = {
      label: attrs.get("aria-label") ?? buttons[0]?.text ?? "",
      method: (attrs.get("method") ?? "get").toLowerCase(),
      action: attrs.get("action") ?? null,
      enctype: (attrs.get("enctype") ?? "application/x-www-form-urlencoded").toLowerCase(),
      scriptOnly: !serverAction && !attrs.has("method") && !attrs.has("action"),
      serverAction,
      fields,
      buttons,
    };
    forms.push(form);
    const id = attrs.get("id");
    if (id) byId.set(id, form);
  }
  const outside = html.replace(/<form\b[^>]*>[\s\S]*?<\/form>/g, "");
  for (const b of outside.matchAll(/<button\b[^>]*>[\s\S]*?<\/button>/g)) {
    const a = attributes(/^<button\b[^>]*>/.exec(b[0])![0]);
    const form = byId.get(a.get("form") ?? "");
    if (form && (a.get("type") ?? "submit") === "submit") form.buttons.push({ text: textOf(b[0]), label: a.get("aria-label") ?? textOf(b[0]), name: a.get("name") ?? null, value: a.get("value") ?? "", disabled: a.has("disabled") });
  }
  return forms;
}

/**
 * The body a browser posts for `form` when `button` is pressed: its fields, with `set` replacing
 * the named fields' values (an array: one field each, as ticked checkboxes of one name are sent).
 */
export function nativeBody(form: NativeForm, button: NativeButton | undefined, set: Record<string, string | string[] | File> = {}): FormData {
  const body = new FormData();
  const replaced = new Set<string>();
  for (const f of form.fields) {
    if (f.name in set) {
      if (replaced.has(f.name)) continue;
      replaced.add(f.name);
      const v = set[f.name];
      for (const one of Array.isArray(v) ? v : [v]) body.append(f.name, one);
    } else body.append(f.name, f.value);
  }
  for (const [name, v] of Object.entries(set)) {
    if (replaced.has(name)) continue;
    for (const one of Array.isArray(v) ? v : [v]) body.append(name, one);
  }
  if (button?.name) body.append(button.name, button.value);
  return body;
}
