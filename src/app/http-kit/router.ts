import type { IncomingMessage } from "node:http";
import { isStorableText } from "../../shared/stored-values.js";
import { HttpError } from "./http-error.js";
import { escapeRegExp } from "../../shared/regexp.js";

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string | string[]>;
  /** Sent as-is with its own content type instead of JSON. */
  raw?: { contentType: string; content: string | Uint8Array };
  /**
   * A body too big to hold (CSV exports): written chunk by chunk as the client takes them, with
   * its own content type (http/request-handler.ts). An error before the first chunk is an error reply.
   */
  stream?: { contentType: string; chunks: AsyncIterable<string | Uint8Array> };
}

export interface RequestContext {
  req: IncomingMessage;
  url: URL;
  params: Record<string, string>;
  route: string;
}

export type Handler = (ctx: RequestContext) => Promise<Reply>;

interface Route {
  method: string;
  pattern: string;
  regex: RegExp;
  names: string[];
  handler: Handler;
}

export type Match = { handler: Handler; params: Record<string, string>; route: string };

/** Exact-path router: `:name` segments match one non-empty path segment. */
export class Router {
  readonly #routes: Route[] = [];

  on(method: string, pattern: string, handler: Handler): this {
    const names: string[] = [];
    const source = pattern
      .split("/")
      .map((segment) => {
        if (!segment.startsWith(":")) return escapeRegExp(segment);
        names.push(segment.slice(1));
        return "([^/]+)";
      })
      .join("/");
    this.#routes.push({ method, pattern, regex: new RegExp(`^${source}$`), names, handler });
    return this;
  }

  /** Every registered method and pattern (the OpenAPI test checks each is documented). */
  list(): { method: string; pattern: string }[] {
    return this.#routes.map(({ method, pattern }) => ({ method, pattern }));
  }

  /** The route for a request; 405 when only the method is wrong; null when no path matches. */
  match(method: string, pathname: string): Match | null {
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const found = route.regex.exec(pathname);
      if (!found) continue;
      const values = route.names.map((_, i) => decodeSegment(found[i + 1] ?? ""));
      // A segment that does not decode to storable text names nothing: no route, so a plain 404.
      if (values.some((value) => value === null)) continue;
      if (route.method !== method && !(method === "HEAD" && route.method === "GET")) {
        allowed.push(route.method);
        continue;
      }
      const params = Object.fromEntries(route.names.map((name, i) => [name, values[i] as string]));
      return { handler: route.handler, params, route: route.pattern };
    }
    if (allowed.length > 0) {
      throw new HttpError(405, `Method ${method} is not allowed here; use ${allowed.join(", ")}`, undefined, { Allow: allowed.join(", ") });
    }
    return null;
  }
}

function decodeSegment(segment: string): string | null {
  try {
    const decoded = decodeURIComponent(segment);
    return isStorableText(decoded) ? decoded : null;
  } catch {
    return null;
  }
}
