/** HTML that is already safe to send: only `html` and `raw` make one. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

/** Trusted markup (constants written in this code base), never user data. */
export const raw = (markup: string): SafeHtml => new SafeHtml(markup);

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/** Template tag: every interpolated value is escaped unless it is SafeHtml (or an array of them). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(out);
}

/** JSON for a `<script type="application/json">` block: `<` is escaped so no value can close the element. */
export const jsonScript = (id: string, value: unknown): SafeHtml =>
  raw(`<script type="application/json" id="${escapeHtml(id)}">${JSON.stringify(value).replace(/</g, "\\u003c")}</script>`);

/** A link target only when it is http(s): a `javascript:` URL reported by a runner must not become a link. */
export const httpUrl = (url: string | null | undefined): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

/** Text whose http(s) URLs become links (everything else escaped): an error that says where to fix it can be followed. */
export function linkified(text: string): SafeHtml {
  const parts = text.split(/(https?:\/\/[^\s<>"')]+[^\s<>"').,;:])/g);
  return html`${parts.map((part, index) => (index % 2 === 1 ? html`<a href="${part}">${part}</a>` : part))}`;
}

/**
 * Plain text written for a terminal and a page alike (the setup steps): its `backticked` spans
 * become code and its other URLs links, so the page shows neither literal backticks nor dead URLs.
 */
export function codeAndLinks(text: string): SafeHtml {
  const parts = text.split(/`([^`]+)`/g);
  return html`${parts.map((part, index) => (index % 2 === 1 ? html`<code>${part}</code>` : linkified(part)))}`;
}
