import type { ReadFormat } from "../../../shared/analytics-vocabulary.js";

/**
 * What kind of document a view read: the page as HTML, its markdown twin (`/guide.md`, or any path
 * asked for with an Accept header ranking markdown above HTML), an llms.txt index, or other text
 * (`.txt`, `.json`, `.xml`, `.yaml`, `.csv`). Stored as a smallint (FORMAT_CODE).
 */
export const FORMAT_CODE: Record<ReadFormat, number> = { html: 0, markdown: 1, "llms.txt": 2, text: 3 };

// The query string and fragment are ignored.
const LLMS_TXT_PATH = /(?:^|\/)llms(?:-full)?\.txt(?:[?#]|$)/i;
const MARKDOWN_PATH = /^[^?#]*\.mdx?(?:[?#]|$)/i;
const TEXT_PATH = /^[^?#]*\.(?:txt|json|xml|ya?ml|csv)(?:[?#]|$)/i;

export function readFormat(path: string, accept: string | undefined): ReadFormat {
  if (LLMS_TXT_PATH.test(path)) return "llms.txt";
  if (MARKDOWN_PATH.test(path) || prefersMarkdown(accept)) return "markdown";
  if (TEXT_PATH.test(path)) return "text";
  return "html";
}

/** Markdown and llms.txt are what agents read; a non-browser fetching them is taken for one (classify.ts). */
export const isMarkdownRead = (format: ReadFormat) => format === "markdown" || format === "llms.txt";

const MARKDOWN_SUFFIX = /\.mdx?$/i;

/**
 * The page a markdown twin stands for, when the project counts them as the page (its
 * `markdownAsPage` setting): `/guide.md` and `/guide.mdx` are `/guide`, `/guide/index.md` is
 * `/guide`, and `/index.md` is `/`. Other paths are returned as they are.
 */
export function pageOfMarkdownTwin(path: string): string {
  if (!MARKDOWN_SUFFIX.test(path)) return path;
  const page = path.replace(MARKDOWN_SUFFIX, "").replace(/\/index$/i, "");
  return page === "" ? "/" : page;
}

const MENTIONS_MARKDOWN = /markdown/i;
const MARKDOWN_TYPES: ReadonlySet<string> = new Set(["text/markdown", "text/x-markdown"]);
const HTML_TYPES: ReadonlySet<string> = new Set(["text/html", "application/xhtml+xml"]);

interface MediaRange {
  readonly type: string;
  readonly q: number;
  readonly index: number;
}

/**
 * True when the client ranks markdown above HTML: a higher q-value, or the same q-value and listed
 * first. Wildcard ranges (`text/*`, any type) are ignored: they are fallbacks, not a wish for HTML.
 * So `text/markdown, text/html` is markdown, `text/html, text/markdown` is not, and
 * `text/html;q=0.9, text/markdown` is.
 */
function prefersMarkdown(accept: string | undefined): boolean {
  if (accept === undefined || !MENTIONS_MARKDOWN.test(accept)) return false;
  const ranges = parseAccept(accept);
  const markdown = strongest(ranges, MARKDOWN_TYPES);
  if (!markdown || markdown.q === 0) return false;
  const html = strongest(ranges, HTML_TYPES);
  return !html || markdown.q > html.q || (markdown.q === html.q && markdown.index < html.index);
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(",").map((range, index) => {
    const [type = "", ...params] = range.split(";");
    return { type: type.trim().toLowerCase(), q: qValue(params), index };
  });
}

function qValue(params: readonly string[]): number {
  for (const param of params) {
    const [key = "", value = ""] = param.split("=");
    if (key.trim().toLowerCase() !== "q") continue;
    const q = Number.parseFloat(value);
    return Number.isNaN(q) ? 1 : Math.min(Math.max(q, 0), 1);
  }
  return 1;
}

function strongest(ranges: readonly MediaRange[], types: ReadonlySet<string>): MediaRange | undefined {
  let best: MediaRange | undefined;
  for (const range of ranges) {
    if (types.has(range.type) && (!best || range.q > best.q)) best = range;
  }
  return best;
}
