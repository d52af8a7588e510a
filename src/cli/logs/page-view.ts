import { quote, skip, type LoggedRequest, type ParsedLine } from "./fields.js";

/**
 * Which logged requests are page views, the same for every format. The first failed check is the
 * reason, in this order: method, request target (malformed), assets and framework paths
 * (not-a-page-view), status. So a failed asset request counts as not-a-page-view, and `status`
 * counts page requests answered with a redirect.
 */

const PAGE_METHODS = new Set(["GET", "HEAD"]);
const NON_PAGE_PREFIXES = ["/_next/", "/_vercel/", "/cdn-cgi/", "/.well-known/"];
// Feeds and sitemaps (xml) and downloads (pdf, zip) are fetched, not read as docs pages; llms.txt files are read by AI agents.
const ASSET_EXTENSIONS = new Set(
  "css js mjs map json xml png jpg jpeg gif svg webp avif ico woff woff2 ttf otf eot mp4 webm mp3 pdf zip wasm txt".split(" "),
);
const TEXT_PAGES = new Set(["llms.txt", "llms-full.txt"]);
// Absolute-form request targets (`GET http://host/path`), as proxies send them.
const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;

export function pageView(request: LoggedRequest): ParsedLine {
  if (!PAGE_METHODS.has(request.method)) return skip("method", `${request.method} is not GET or HEAD`);
  const path = requestPath(request.target);
  if (path === undefined) return skip("malformed", `request target ${quote(request.target)} is not a path`);
  const nonPage = nonPageDetail(path);
  if (nonPage !== undefined) return skip("not-a-page-view", nonPage);
  if (!isPageStatus(request.status)) return skip("status", `status ${request.status} is not a page answer (2xx, 304, 4xx or 5xx)`);
  const { timestamp, ip, userAgent, referrer, accept, status } = request;
  return {
    ok: true,
    hit: {
      timestamp,
      path: withUtmSource(path, request.target),
      ip,
      userAgent,
      ...(accept ? { accept } : {}),
      ...(referrer ? { referrer } : {}),
      ...(status !== undefined && status >= 400 ? { status } : {}),
    },
  };
}

/** The path of a request target, without query and fragment, percent-encoding untouched; undefined when it is no path. */
function requestPath(target: string): string | undefined {
  const origin = ABSOLUTE_FORM.exec(target)?.[0];
  const path = target.slice(origin?.length ?? 0).split(/[?#]/, 1)[0] ?? "";
  if (origin !== undefined) return path === "" ? "/" : path;
  return path.startsWith("/") ? path : undefined;
}

/**
 * The server reads a campaign's source from the hit's path (`/guide?utm_source=newsletter`) and
 * drops the rest of the query; only that one parameter is sent, so no other query value (tokens,
 * search terms) leaves the machine.
 */
function withUtmSource(path: string, target: string): string {
  const query = /\?([^#]*)/.exec(target)?.[1];
  const source = query === undefined ? null : new URLSearchParams(query).get("utm_source");
  return source ? `${path}?utm_source=${encodeURIComponent(source)}` : path;
}

function nonPageDetail(path: string): string | undefined {
  const prefix = NON_PAGE_PREFIXES.find((p) => path.startsWith(p));
  if (prefix !== undefined) return `${path} is under ${prefix}`;
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot + 1) : "";
  if (ASSET_EXTENSIONS.has(extension) && !TEXT_PAGES.has(name)) return `${path} is a static asset (.${extension})`;
  return undefined;
}

/**
 * A page answer: 2xx, 304, or a 4xx/5xx error (sent with its status: the server reports AI agents'
 * failed fetches and counts no visit for them). A request without a status (a field the export
 * left out) is judged on the rest alone.
 */
function isPageStatus(status: number | undefined): boolean {
  return status === undefined || (status >= 200 && status <= 299) || status === 304 || (status >= 400 && status <= 599);
}
