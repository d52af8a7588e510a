import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Why a webhook may not go to an address: loopback, private, link-local (cloud metadata), and every other range that is not the public internet's. */
export function refusedAddress(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process(): an IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it is.
    parsed = ipaddr.process(address);
  } catch {
    return "not an IP address";
  }
  const range = parsed.range();
  if (range === "unicast") return null;
  const names: Record<string, string> = { unspecified: "an unspecified", loopback: "a loopback", private: "a private", linkLocal: "a link-local (cloud metadata)", uniqueLocal: "a private (unique local)", carrierGradeNat: "a carrier-grade NAT" };
  return `${names[range] ?? `a ${range}`} address`;
}

export class RefusedDestinationError extends Error {}

const refusal = (host: string, address: string, why: string) =>
  new RefusedDestinationError(
    `${host}${host === address ? "" : ` resolves to ${address}, which`} is ${why}: webhooks go to public addresses only (the operator allows internal ones with INKWELL_WEBHOOKS_ALLOW_PRIVATE=true)`,
  );

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * dns.lookup for the connection itself: every address the name resolves to is checked, and the
 * socket connects only to a checked one. Checking before the request and connecting after would
 * let a name that changes its answer in between (DNS rebinding) through.
 */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    for (const { address } of addresses) {
      const why = refusedAddress(address);
      if (why) return callback(refusal(hostname, address, why), []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    callback(null, first.address, first.family);
  });
}

/** Whether the URL may be delivered to, resolving its host now (at creation; every delivery checks again as it connects). */
export async function checkDestination(url: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  const { hostname } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : await resolveAll(host);
  for (const address of addresses) {
    const why = refusedAddress(address);
    if (why) return refusal(host, address, why).message;
  }
  return null;
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
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (!init.allowPrivate && isIP(host)) {
    const why = refusedAddress(host);
    if (why) return Promise.reject(refusal(host, host, why));
  }
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
