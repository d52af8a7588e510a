import { describe, expect, it } from "vitest";
import { RangeVerifier, rangeDocumentSchema, vendoredRangeLists, type AgentRangeList } from "../../../../../src/app/analytics/classify/agent-ranges.js";

const list = (id: string, agents: string[], prefixes: RangeListPrefix[]): AgentRangeList => ({
  source: { id, url: `https://example.com/${id}.json`, agents, operator: "Example", retrieved: "2026-11-01" },
  asOf: "2026-11-01",
  document: { creationTime: "2026-11-01T00:00:00Z", prefixes },
});
type RangeListPrefix = { ipv4Prefix: string } | { ipv6Prefix: string };

// Documentation ranges (RFC 5737, RFC 3849): the fixture's own "published" addresses.
const verifier = new RangeVerifier([
  list("fixture-bot", ["FixtureBot"], [{ ipv4Prefix: "192.0.2.0/25" }, { ipv6Prefix: "2001:db8:10::/48" }]),
  list("fixture-user", ["Fixture-User", "Fixture-Search"], [{ ipv4Prefix: "198.51.100.7/32" }]),
]);

describe("verifying an agent by the address its operator publishes", () => {
  it.each([
    ["IPv4 inside a published prefix", "FixtureBot", "192.0.2.100", "verified"],
    ["IPv4 just outside it", "FixtureBot", "192.0.2.128", "spoofed"],
    ["IPv6 inside a published prefix", "FixtureBot", "2001:db8:10:ffff::1", "verified"],
    ["IPv6 outside it", "FixtureBot", "2001:db8:11::1", "spoofed"],
    ["IPv4-mapped IPv6 of a published IPv4 address", "FixtureBot", "::ffff:192.0.2.5", "verified"],
    ["IPv4-mapped IPv6 of another address", "FixtureBot", "::ffff:203.0.113.5", "spoofed"],
    ["a single published host (/32)", "Fixture-User", "198.51.100.7", "verified"],
    ["the next host", "Fixture-User", "198.51.100.8", "spoofed"],
    ["a second agent of the same list", "Fixture-Search", "198.51.100.7", "verified"],
    ["an agent whose operator publishes nothing", "Meta-ExternalAgent", "192.0.2.1", "unverifiable"],
    ["something that is no address", "FixtureBot", "not-an-ip", "spoofed"],
  ] as const)("%s: %s from %s is %s", (_name, agent, ip, expected) => {
    expect(verifier.verify(agent, ip)).toBe(expected);
    // A second look (answered from memory) agrees.
    expect(verifier.verify(agent, ip)).toBe(expected);
  });

  it("refuses a list with a prefix that is not CIDR of its family, and an empty one", () => {
    expect(rangeDocumentSchema.safeParse({ prefixes: [{ ipv4Prefix: "2001:db8::/32" }] }).success).toBe(false);
    expect(rangeDocumentSchema.safeParse({ prefixes: [{ ipv4Prefix: "192.0.2.0/33" }] }).success).toBe(false);
    expect(rangeDocumentSchema.safeParse({ prefixes: [] }).success).toBe(false);
    expect(rangeDocumentSchema.safeParse({ creationTime: "x", prefixes: [{ ipv6Prefix: "2001:db8::/32" }] }).success).toBe(true);
  });

  it("ships a dated snapshot of every operator list, each parsing and covering at least one agent", () => {
    const lists = vendoredRangeLists();
    expect(lists.length).toBeGreaterThanOrEqual(10);
    for (const { source, asOf, document } of lists) {
      expect(source.url, source.id).toMatch(/^https:\/\//);
      expect(source.agents.length, source.id).toBeGreaterThan(0);
      expect(Number.isNaN(Date.parse(asOf)), `${source.id} ${asOf}`).toBe(false);
      expect(document.prefixes.length, source.id).toBeGreaterThan(0);
    }
    const agents = new RangeVerifier(lists).agents;
    expect(agents).toEqual(expect.arrayContaining(["GPTBot", "ChatGPT-User", "OAI-SearchBot", "PerplexityBot", "ClaudeBot", "CCBot"]));
  });
});
