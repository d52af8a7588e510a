import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { addressRange, rangeLabel, urlHost } from "../address-ranges.js";

/** Why a webhook may not go to an address: loopback, private, link-local (cloud metadata), and every other range that is not the public internet's. */
export function refusedAddress(address: string): string | null {
  const range = addressRange(address);
  if (range === null) return "not an IP address";
  if (range === "unicast") return null;
  const label = `${rangeLabel(range)}${range === "linkLocal" ? " (cloud metadata)" : ""}`;
  return `${/^[aeiou]/.test(label) ? "an" : "a"} ${label} address`;
}

export class RefusedDestinationError extends Error {}

/** The refusal of the first of `addresses` (what `host` is or resolves to) that is not public; null when all are. */
function firstRefusal(host: string, addresses: string[]): RefusedDestinationError | null {
  for (const address of addresses) {
    const why = refusedAddress(address);
    if (why) {
      return new RefusedDestinationError(
        `${host}${host === address ? "" : ` resolves to ${address}, which`} is ${why}: webhooks go to public addresses only (the operator allows internal ones with INKWELL_WEBHOOKS_ALLOW_PRIVATE=true)`,
      );
    }
  }
  return null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * dns.lookup for the connection itself: every address the name resolves to is checked, and the
 * socket connects only to a checked one. Checking before the request and connecting after would
 * let a name that changes its answer in between (DNS rebinding) through.
 */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = firstRefusal(hostname, addresses.map(({ address }) => address));
    if (refused) return callback(refused, []);
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    callback(null, first.address, first.family);
  });
}

/** Whether the URL may be delivered to, resolving its host now (at creation; every delivery checks again as it connects). */
export async function checkDestination(url: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  const host = urlHost(url);
  return firstRefusal(host, isIP(host) ? [host] : await resolveAll(host))?.message ?? null;
}

/** Every address a name resolves to now; none when it does not resolve (or is no name DNS can look up). */
function resolveAll(host: string): Promise<string[]> {
  return new Promise((resolve) => {
    try {
      dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found.map((a) => a.address)));
    } catch {
      resolve([]);
    }
  });
}

/** One POST to a webhook endpoint: no redirects followed, refused destinations never connected to. Resolves with the status. */
export function postToDestination(url: string, init: { headers: Record<string, string>; body: string; timeoutMs: number; allowPrivate: boolean }): Promise<number> {
  const target = new URL(url);
  const host = urlHost(target);
  const refused = !init.allowPrivate && isIP(host) ? firstRefusal(host, [host]) : null;
  if (refused) return Promise.reject(refused);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: "POST",
        headers: { ...init.headers, "Content-Length": Buffer.byteLength(init.body) },
        signal: AbortSignal.timeout(init.timeoutMs),
        ...(init.allowPrivate ? {} : { lookup: guardedLookup as never }),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}
