import ipaddr from "ipaddr.js";

/** The host of a URL as an address or a name: an IPv6 address without its brackets. */
export const urlHost = (url: string | URL) => new URL(url).hostname.replace(/^\[|\]$/g, "");

/** The ipaddr.js range of an IP address (an IPv4-mapped IPv6 address is judged as the IPv4 one); null for text that is no IP address. */
export function addressRange(address: string): string | null {
  try {
    return ipaddr.process(address).range();
  } catch {
    return null;
  }
}

/** A range as an operator reads it (`unicast` is the public internet's). */
export function rangeLabel(range: string): string {
  const labels: Record<string, string> = { loopback: "loopback", linkLocal: "link-local", uniqueLocal: "private (unique local)", carrierGradeNat: "carrier-grade NAT", unspecified: "unspecified" };
  return labels[range] ?? range;
}
