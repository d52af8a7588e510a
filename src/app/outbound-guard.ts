import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { addressRange, rangeLabel, urlHost } from "./address-ranges.js";

/**
 * The one guard on the service's outbound requests to addresses a project names (webhook
 * endpoints, a site's robots.txt): only the public internet, checked as the socket connects.
 */

/** Why a request may not go to an address: loopback, private, link-local (cloud metadata), and every other range that is not the public internet's. */
export function refusedAddress(address: string): string | null {
  const range = addressRange(address);
  if (range === null) return "not an IP address";
  if (range === "unicast") return null;
  const label = `${rangeLabel(range)}${range === "linkLocal" ? " (cloud metadata)" : ""}`;
  return `${/^[aeiou]/.test(label) ? "an" : "a"} ${label} address`;
}

export class RefusedDestinationError extends Error {}

/** What goes out to an address, and how the operator allows internal ones, as a refusal words it. */
export interface OutboundPurpose {
  /** "webhooks go", "robots.txt fetches go". */
  what: string;
  /** The setting that allows internal addresses. */
  allowSetting: string;
}

/** The refusal of the first of `addresses` (what `host` is or resolves to) that is not public; null when all are. */
export function firstRefusal(host: string, addresses: string[], purpose: OutboundPurpose): RefusedDestinationError | null {
  for (const address of addresses) {
    const why = refusedAddress(address);
    if (why) {
      return new RefusedDestinationError(
        `${host}${host === address ? "" : ` resolves to ${address}, which`} is ${why}: ${purpose.what} to public addresses only (the operator allows internal ones with ${purpose.allowSetting}=true)`,
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
export function guardedLookup(purpose: OutboundPurpose) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = firstRefusal(hostname, addresses.map(({ address }) => address), purpose);
      if (refused) return callback(refused, []);
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** The refusal of a URL whose host is a literal address that is not public (a name is checked as it connects: guardedLookup). */
export function literalRefusal(url: URL, purpose: OutboundPurpose): RefusedDestinationError | null {
  const host = urlHost(url);
  return isIP(host) ? firstRefusal(host, [host], purpose) : null;
}

/** Whether the URL may be requested, resolving its host now (when it is set; every request checks again as it connects). */
export async function checkDestination(url: string, allowPrivate: boolean, purpose: OutboundPurpose): Promise<string | null> {
  if (allowPrivate) return null;
  const host = urlHost(url);
  return firstRefusal(host, isIP(host) ? [host] : await resolveAll(host), purpose)?.message ?? null;
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

/**
 * A GET of one URL (no redirect followed) whose connection goes only to addresses `purpose` allows
 * (guardedLookup), unless the operator allows private ones. Resolves with the answer's head.
 */
export function guardedGet(target: URL, purpose: OutboundPurpose, options: { allowPrivate: boolean; accept: string; signal: AbortSignal }): Promise<IncomingMessage> {
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(target, { method: "GET", headers: { Accept: options.accept }, signal: options.signal, ...(options.allowPrivate ? {} : { lookup: guardedLookup(purpose) as never }) }, resolve);
    req.on("error", reject);
    req.end();
  });
}

/** The body as UTF-8, or null once it passes `maxBytes` (the rest is not read). */
export function readCapped(res: IncomingMessage, maxBytes: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    res.on("error", reject);
  });
}
