import { createHmac } from "node:crypto";
import { isIP } from "node:net";

/**
 * The address a visitor is known by: IPv6 in its canonical compressed lower-case form, and an
 * IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, as dual-stack sockets report IPv4 clients) as the
 * plain IPv4 it stands for, so one person is one visitor whichever way the address arrived.
 * Null when `raw` is not an IP address.
 */
export function normalizeIp(raw: string): string | null {
  const ip = raw.trim();
  const version = isIP(ip);
  if (version === 4) return ip;
  if (version !== 6) return null;
  // The WHATWG URL parser canonicalizes IPv6 (zero compression, lower case, embedded IPv4 as hex).
  const host = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return host;
  const high = parseInt(mapped[1] as string, 16);
  const low = parseInt(mapped[2] as string, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * The visitor id (docs/architecture.md, "Analytics"): HMAC-SHA256 under the salt window's secret of the normalized IP and the
 * User-Agent, truncated to 64 bits (a signed bigint column; collisions among a million visitors
 * of one window have a chance of about 3 in 100 million). Returned as a decimal string.
 */
export function visitorId(secret: Buffer, normalizedIp: string, userAgent: string): string {
  const digest = createHmac("sha256", secret).update(normalizedIp).update("\n").update(userAgent).digest();
  return digest.readBigInt64BE(0).toString();
}
