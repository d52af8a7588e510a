import type { IncomingMessage } from "node:http";
import { MAX_ROBOTS_BYTES } from "../../../shared/robots-schemas.js";
import { guardedGet, literalRefusal, readCapped, type OutboundPurpose } from "../../outbound-guard.js";

/** The same guard, and the same operator setting, as project webhooks (outbound-guard.ts). */
export const ROBOTS_FETCHES: OutboundPurpose = { what: "robots.txt fetches go", allowSetting: "INKWELL_WEBHOOKS_ALLOW_PRIVATE" };

/** RFC 9309 2.3.1.2: follow at least five consecutive redirects. */
const MAX_REDIRECTS = 5;

export interface RobotsFetchOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes?: number;
}

export type RobotsFetch = { ok: true; body: string; url: string } | { ok: false; status: number | null; error: string };

/**
 * One GET of a robots.txt, following up to five redirects (each hop through the address guard:
 * a redirect to a private address is refused like the URL itself), within a time limit for the
 * whole fetch and a size limit on the body. Only a 2xx is a file; anything else says why not.
 */
export async function fetchRobotsTxt(url: string, options: RobotsFetchOptions): Promise<RobotsFetch> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  if (!URL.canParse(url)) return { ok: false, status: null, error: "not a URL" };
  let target = new URL(url);
  for (let hop = 0; ; hop++) {
    if (target.protocol !== "http:" && target.protocol !== "https:") return { ok: false, status: null, error: `not an http(s) URL: ${target.protocol}` };
    const refused = options.allowPrivate ? null : literalRefusal(target, ROBOTS_FETCHES);
    if (refused) return { ok: false, status: null, error: refused.message };
    let res: IncomingMessage;
    try {
      res = await guardedGet(target, ROBOTS_FETCHES, { allowPrivate: options.allowPrivate, accept: "text/plain", signal });
    } catch (error) {
      return { ok: false, status: null, error: signal.aborted ? `no answer within ${options.timeoutMs} ms` : (error as Error).message };
    }
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location) {
      res.resume();
      if (hop >= MAX_REDIRECTS) return { ok: false, status, error: `more than ${MAX_REDIRECTS} redirects` };
      if (!URL.canParse(location, target.href)) return { ok: false, status, error: "a redirect to no URL" };
      target = new URL(location, target);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      return { ok: false, status, error: `the site answered ${status}` };
    }
    try {
      const body = await readCapped(res, options.maxBytes ?? MAX_ROBOTS_BYTES);
      return body === null ? { ok: false, status, error: `larger than ${options.maxBytes ?? MAX_ROBOTS_BYTES} bytes` } : { ok: true, body, url: target.href };
    } catch (error) {
      return { ok: false, status, error: signal.aborted ? `no answer within ${options.timeoutMs} ms` : (error as Error).message };
    }
  }
}
