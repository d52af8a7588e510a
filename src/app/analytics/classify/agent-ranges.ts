import { readFileSync } from "node:fs";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { packageUrl } from "../../package-root.js";
import type { AgentVerifier, Verification } from "./verification.js";

/**
 * The address ranges AI operators publish for their agents (vendor/agent-ranges: dated snapshots
 * with their URLs in sources.json; `inkwell agents refresh` fetches newer ones into the store).
 * Every list so far has one shape, Google's: `{creationTime, prefixes: [{ipv4Prefix} | {ipv6Prefix}]}`.
 */
const cidr = (family: { isValidCIDR(text: string): boolean }) => z.string().refine((text) => family.isValidCIDR(text), { error: "is not a CIDR prefix of its address family" });

export const rangeDocumentSchema = z.object({
  creationTime: z.string().optional(),
  prefixes: z
    .array(z.union([z.object({ ipv4Prefix: cidr(ipaddr.IPv4) }), z.object({ ipv6Prefix: cidr(ipaddr.IPv6) })]))
    .min(1, { error: "lists no prefixes" })
    .max(100_000),
});
export type RangeDocument = z.infer<typeof rangeDocumentSchema>;

export const rangeSourceSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  url: z.url({ protocol: /^https$/ }),
  agents: z.array(z.string().min(1)).min(1),
  operator: z.string(),
  retrieved: z.string(),
});
export type RangeSource = z.infer<typeof rangeSourceSchema>;

/** One published list: where it comes from, which agents it covers, and its prefixes. */
export interface AgentRangeList {
  source: RangeSource;
  /** When the list was published (its creationTime) or, failing that, retrieved. */
  asOf: string;
  document: RangeDocument;
}

const VENDOR_DIR = packageUrl("vendor/agent-ranges/");

/** The snapshots shipped with this release. */
export function vendoredRangeLists(dir: URL = VENDOR_DIR): AgentRangeList[] {
  const sources = z.array(rangeSourceSchema.loose()).parse(JSON.parse(readFileSync(new URL("sources.json", dir), "utf8")));
  return sources.map((source) => {
    const document = rangeDocumentSchema.parse(JSON.parse(readFileSync(new URL(`${source.id}.json`, dir), "utf8")));
    return { source, asOf: document.creationTime ?? source.retrieved, document };
  });
}

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** A checked-out verdict per agent and address, remembered (agents come back from the same few addresses). */
const CACHE_LIMIT = 20_000;

/**
 * Verifies AI agents by address: an agent whose operator publishes ranges is `verified` from
 * inside them and `spoofed` from anywhere else; any other agent is `unverifiable`. IPv4-mapped
 * IPv6 addresses are checked as the IPv4 address they carry.
 */
export class RangeVerifier implements AgentVerifier {
  readonly #ranges = new Map<string, Cidr[]>();
  readonly #verdicts = new Map<string, Verification>();

  constructor(lists: readonly AgentRangeList[]) {
    for (const list of lists) {
      const cidrs = list.document.prefixes.map((prefix) => ipaddr.parseCIDR("ipv4Prefix" in prefix ? prefix.ipv4Prefix : prefix.ipv6Prefix));
      for (const agent of list.source.agents) this.#ranges.set(agent, [...(this.#ranges.get(agent) ?? []), ...cidrs]);
    }
  }

  /** The agents this verifier can check. */
  get agents(): string[] {
    return [...this.#ranges.keys()];
  }

  verify(agent: string, ip: string): Verification {
    const ranges = this.#ranges.get(agent);
    if (!ranges) return "unverifiable";
    const key = `${agent}\n${ip}`;
    const cached = this.#verdicts.get(key);
    if (cached) return cached;
    const verdict = inAny(ip, ranges) ? "verified" : "spoofed";
    if (this.#verdicts.size >= CACHE_LIMIT) this.#verdicts.clear();
    this.#verdicts.set(key, verdict);
    return verdict;
  }
}

function inAny(ip: string, ranges: readonly Cidr[]): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const address = ipaddr.process(ip);
  const kind = address.kind();
  return ranges.some(([network, bits]) => network.kind() === kind && address.match(network, bits));
}
