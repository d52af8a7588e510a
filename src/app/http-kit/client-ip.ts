import { BlockList, isIP } from "node:net";
import type { IncomingMessage } from "node:http";

/**
 * Trusted reverse proxies from INKWELL_TRUSTED_PROXIES: addresses or CIDR ranges, comma separated.
 * Throws with the offending entry when one is neither.
 */
export function parseTrustedProxies(spec: string | undefined): BlockList {
  const list = new BlockList();
  for (const entry of (spec ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const [address = "", bits] = entry.split("/");
    const family = isIP(address);
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    if (family === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32) || (bits !== undefined && !/^\d+$/.test(bits))) {
      throw new Error(`INKWELL_TRUSTED_PROXIES: '${entry}' is not an IP address or CIDR range`);
    }
    list.addSubnet(address, prefix, family === 6 ? "ipv6" : "ipv4");
  }
  return list;
}

const isTrusted = (list: BlockList, address: string) => {
  const family = isIP(address);
  if (family === 0) return false;
  const unmapped = family === 6 && /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
  return list.check(unmapped, isIP(unmapped) === 6 ? "ipv6" : "ipv4");
};

/** Whether the request came straight from one of the trusted proxies. */
export const isTrustedPeer = (req: IncomingMessage, trusted: BlockList) => isTrusted(trusted, req.socket.remoteAddress ?? "");

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy; then the
 * X-Forwarded-For hops are walked from the right (the nearest) and the first untrusted one is the
 * client. Hops a client could have forged (left of an untrusted one) are never believed.
 */
export function clientIp(req: IncomingMessage, trusted: BlockList): string | null {
  const peer = req.socket.remoteAddress ?? null;
  if (!peer || !isTrusted(trusted, peer)) return peer;
  const header = req.headers["x-forwarded-for"];
  const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (isIP(hop) === 0) return null;
    if (!isTrusted(trusted, hop)) return hop;
  }
  return hops[0] ?? peer;
}
