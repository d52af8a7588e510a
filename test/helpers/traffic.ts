/** Generated traffic with a known answer: the brute-force side of the analytics exactness tests. */
import { readFileSync } from "node:fs";
import type { ReadFormat } from "../../src/shared/analytics-vocabulary.js";
import { DAY_MS } from "../../src/shared/epoch-days.js";

export const USER_AGENTS = {
  human: [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:132.0) Gecko/20100101 Firefox/132.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  ],
  ai: [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
  ],
  bot: [
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
  ],
} as const;

/** The vendored address list of each agent of USER_AGENTS.ai (same order). */
export const AI_ADDRESS_LISTS = ["openai-chatgpt-user", "openai-gptbot", "perplexity-bot"] as const;

/** The AI agents of USER_AGENTS.ai (same order), which publish address ranges, and one that does not. */
const VERIFIABLE_AGENTS = [
  { name: "ChatGPT-User", operator: "OpenAI", category: "assistant", list: "openai-chatgpt-user" },
  { name: "GPTBot", operator: "OpenAI", category: "crawler", list: "openai-gptbot" },
  { name: "PerplexityBot", operator: "Perplexity", category: "search", list: "perplexity-bot" },
] as const;
const UNVERIFIABLE_AGENT = {
  name: "Meta-ExternalAgent",
  operator: "Meta",
  category: "crawler",
  userAgent: "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
} as const;
/** A script: its markdown and llms.txt reads are an AI assistant's, its page reads a bot's. */
const FETCHER = { name: "markdown fetch (curl)", operator: "unknown", category: "assistant", userAgent: "curl/8.5.0" } as const;

export type Kind = "human" | "ai" | "bot";
export type Verification = "verified" | "spoofed" | "unverifiable";
export type Format = ReadFormat;

export interface GeneratedHit {
  timestamp: string;
  /** The path as sent. */
  path: string;
  /** The page it counts for (markdown twins fold into their page). */
  page: string;
  ip: string;
  userAgent: string;
  /** How the hit is counted: a spoofed AI claim is a bot. */
  kind: Kind;
  /** The AI agent the hit claims to be, verified or not. */
  agent: { name: string; operator: string; category: string; verification: Verification } | null;
  format: Format;
  /** Only set when not 200. */
  status?: number;
  /** Who the test says this is, whatever form the IP was sent in. */
  person: string;
}

/** What the hits API is sent for a generated hit. */
export const wireHit = ({ timestamp, path, ip, userAgent, status }: GeneratedHit) => ({ timestamp, path, ip, userAgent, ...(status === undefined ? {} : { status }) });

/** Deterministic PRNG (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;

const rangesByList = new Map<string, [number, number][]>();

/** The IPv4 prefixes of a vendored operator list, as [first address, size]. */
function publishedRanges(list: string): [number, number][] {
  const known = rangesByList.get(list);
  if (known) return known;
  // From the working directory (the repository's root, for tests and benchmarks): the benchmarks run bundled elsewhere.
  const document = JSON.parse(readFileSync(`vendor/agent-ranges/${list}.json`, "utf8")) as { prefixes: { ipv4Prefix?: string }[] };
  const ranges = document.prefixes.flatMap(({ ipv4Prefix }) => {
    if (!ipv4Prefix) return [];
    const [base = "", bits = "32"] = ipv4Prefix.split("/");
    return [[base.split(".").reduce((value, octet) => value * 256 + Number(octet), 0), 2 ** (32 - Number(bits))] as [number, number]];
  });
  rangesByList.set(list, ranges);
  return ranges;
}

/**
 * The n-th of the addresses an operator publishes, and how many times the list wrapped before it
 * (callers vary the User-Agent by it, so that every n is a distinct visitor).
 */
export function publishedAddress(list: string, n: number): { ip: string; round: number } {
  const ranges = publishedRanges(list);
  const total = ranges.reduce((sum, [, size]) => sum + size, 0);
  let rest = n % total;
  for (const [start, size] of ranges) {
    if (rest < size) {
      const address = start + rest;
      return { ip: [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join("."), round: Math.floor(n / total) };
    }
    rest -= size;
  }
  throw new Error("unreachable");
}

type PersonKind = "human" | "verified" | "spoofer" | "unverifiable" | "bot" | "fetcher";

/**
 * People (an IP + a UA) viewing pages on several days around `firstDay`: humans, AI agents from
 * their operators' published addresses, agents' User-Agents copied onto other addresses
 * (spoofers), an agent whose operator publishes nothing, bots, and a script fetching markdown.
 * Pages are also read as their markdown twin and llms.txt; some answers are 404 or 500. Some IPv4
 * people are sometimes sent as IPv4-mapped IPv6: they must still be one visitor (and still verify).
 */
export function generateTraffic(options: { seed: number; people: number; paths: number; firstDay: number; days: number; views: number }): GeneratedHit[] {
  const rand = random(options.seed);
  const verifiedSoFar = VERIFIABLE_AGENTS.map(() => 0);
  const people = Array.from({ length: options.people }, (_, i) => {
    const r = rand();
    const kind: PersonKind = r < 0.6 ? "human" : r < 0.72 ? "verified" : r < 0.78 ? "spoofer" : r < 0.83 ? "unverifiable" : r < 0.93 ? "bot" : "fetcher";
    const agentIndex = Math.floor(rand() * VERIFIABLE_AGENTS.length);
    const v6 = kind !== "verified" && rand() < 0.15;
    const published = kind === "verified" ? publishedAddress(VERIFIABLE_AGENTS[agentIndex]!.list, verifiedSoFar[agentIndex]!++) : null;
    const ip = published
      ? published.ip
      : v6
          ? `2001:db8::${(i + 1).toString(16)}`
          : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const userAgent =
      kind === "human"
        ? pick(rand, USER_AGENTS.human)
        : kind === "verified" || kind === "spoofer"
          ? `${USER_AGENTS.ai[agentIndex]!}${published && published.round > 0 ? ` r${published.round}` : ""}`
          : kind === "unverifiable"
            ? UNVERIFIABLE_AGENT.userAgent
            : kind === "bot"
              ? pick(rand, USER_AGENTS.bot)
              : FETCHER.userAgent;
    return { id: `p${i}`, kind, agentIndex, ip, v6, userAgent, homeDay: Math.floor(rand() * options.days) };
  });
  const hits: GeneratedHit[] = [];
  for (let n = 0; n < options.views; n++) {
    const person = pick(rand, people);
    // Most views near the person's home day, some anywhere: people return on several days.
    const offset = rand() < 0.6 ? person.homeDay : Math.floor(rand() * options.days);
    const at = (options.firstDay + offset) * DAY_MS + Math.floor(rand() * DAY_MS);
    const page = `/docs/page-${Math.floor(Math.pow(rand(), 2) * options.paths)}`;
    const f = rand();
    const format: Format = f < 0.73 ? "html" : f < 0.93 ? "markdown" : f < 0.97 ? "llms.txt" : "text";
    const s = rand();
    const status = s < 0.05 ? 404 : s < 0.07 ? 500 : undefined;
    const mapped = !person.v6 && rand() < 0.3;
    const counted = format === "llms.txt" ? "/llms.txt" : format === "text" ? `${page}.txt` : page;
    const claimed = VERIFIABLE_AGENTS[person.agentIndex]!;
    const agent =
      person.kind === "verified" || person.kind === "spoofer"
        ? { name: claimed.name, operator: claimed.operator, category: claimed.category, verification: person.kind === "verified" ? ("verified" as const) : ("spoofed" as const) }
        : person.kind === "unverifiable"
          ? { name: UNVERIFIABLE_AGENT.name, operator: UNVERIFIABLE_AGENT.operator, category: UNVERIFIABLE_AGENT.category, verification: "unverifiable" as const }
          : person.kind === "fetcher" && (format === "markdown" || format === "llms.txt")
            ? { name: FETCHER.name, operator: FETCHER.operator, category: FETCHER.category, verification: "unverifiable" as const }
            : null;
    const kind: Kind = person.kind === "human" ? "human" : agent && agent.verification !== "spoofed" ? "ai" : "bot";
    hits.push({
      timestamp: new Date(at).toISOString(),
      path: format === "markdown" ? `${page}.md` : counted,
      page: counted,
      ip: mapped ? `::ffff:${person.ip}` : person.ip,
      userAgent: person.userAgent,
      kind,
      agent,
      format,
      ...(status === undefined ? {} : { status }),
      person: person.id,
    });
  }
  return hits;
}

export interface Counts {
  human: number;
  ai: number;
  bot: number;
  total: number;
}

const dayOf = (hit: GeneratedHit) => Math.floor(Date.parse(hit.timestamp) / DAY_MS);
const inRange = (hit: GeneratedHit, from: number | null, to: number | null) => {
  const day = dayOf(hit);
  return (from === null || day >= from) && (to === null || day < to);
};
const failed = (hit: GeneratedHit) => (hit.status ?? 200) >= 400;
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The answer by brute force: for each page, the distinct (window, person) pairs with a served view
 * of that kind (in that format, when given) on a day in [from, to). `windowStart(day)` is the project's salt window. Rows list
 * pages with human or AI visitors; totals cover every page.
 */
export function bruteForceVisitors(hits: GeneratedHit[], from: number | null, to: number | null, windowStart: (day: number) => number, format?: Format) {
  type Sets = Record<keyof Counts, Set<string>>;
  const sets = new Map<string, Sets>();
  const empty = (): Sets => ({ human: new Set(), ai: new Set(), bot: new Set(), total: new Set() });
  const site = empty();
  for (const hit of hits) {
    if (failed(hit) || !inRange(hit, from, to) || (format !== undefined && hit.format !== format)) continue;
    const who = `${windowStart(dayOf(hit))}:${hit.person}`;
    let entry = sets.get(hit.page);
    if (!entry) sets.set(hit.page, (entry = empty()));
    for (const target of [entry, site]) {
      target[hit.kind].add(who);
      if (hit.kind !== "bot") target.total.add(who);
    }
  }
  const size = (s: Sets): Counts => ({ human: s.human.size, ai: s.ai.size, bot: s.bot.size, total: s.total.size });
  const rows = [...sets].map(([path, s]) => ({ path, ...size(s) })).filter((row) => row.total > 0);
  rows.sort((a, b) => b.total - a.total || byteOrder(a.path, b.path));
  return { totals: size(site), visitors: rows };
}

/** Served views per page by class (of one format, when given); rows list pages with human or AI views. */
export function bruteForceViews(hits: GeneratedHit[], from: number | null, to: number | null, format?: Format) {
  const byPath = new Map<string, Counts>();
  const totals: Counts = { human: 0, ai: 0, bot: 0, total: 0 };
  for (const hit of hits) {
    if (failed(hit) || !inRange(hit, from, to) || (format !== undefined && hit.format !== format)) continue;
    let entry = byPath.get(hit.page);
    if (!entry) byPath.set(hit.page, (entry = { human: 0, ai: 0, bot: 0, total: 0 }));
    for (const target of [entry, totals]) {
      target[hit.kind]++;
      if (hit.kind !== "bot") target.total++;
    }
  }
  const rows = [...byPath].map(([path, c]) => ({ path, ...c })).filter((row) => row.total > 0);
  rows.sort((a, b) => b.total - a.total || byteOrder(a.path, b.path));
  return { totals, views: rows };
}

/** The agents report by brute force: claims by verification; views, visitors and pages of the unspoofed ones (failed fetches included). */
export function bruteForceAgents(hits: GeneratedHit[], from: number | null, to: number | null, windowStart: (day: number) => number, category?: string) {
  const agents = new Map<string, { agent: string; operator: string; category: string; verification: Record<Verification, number>; visitors: Set<string>; pages: Set<string> }>();
  for (const hit of hits) {
    if (!hit.agent || !inRange(hit, from, to) || (category !== undefined && hit.agent.category !== category)) continue;
    const { name, operator, category: agentCategory, verification } = hit.agent;
    let entry = agents.get(name);
    if (!entry) {
      entry = { agent: name, operator, category: agentCategory, verification: { verified: 0, spoofed: 0, unverifiable: 0 }, visitors: new Set(), pages: new Set() };
      agents.set(name, entry);
    }
    entry.verification[verification]++;
    if (verification === "spoofed") continue;
    entry.visitors.add(`${windowStart(dayOf(hit))}:${hit.person}`);
    entry.pages.add(hit.page);
  }
  const rows = [...agents.values()].map(({ visitors, pages, ...rest }) => ({
    ...rest,
    views: rest.verification.verified + rest.verification.unverifiable,
    visitors: visitors.size,
    pages: pages.size,
    // Generated traffic comes with no robots.txt: nothing is disallowed (robots-compliance.test.ts judges).
    robotsDisallowed: 0,
  }));
  rows.sort((a, b) => b.views - a.views || byteOrder(a.agent, b.agent));
  return {
    totals: { views: rows.reduce((sum, r) => sum + r.views, 0), visitors: rows.reduce((sum, r) => sum + r.visitors, 0) },
    agents: rows,
  };
}

/** One agent's pages by brute force (its unspoofed hits, failed ones included and counted). */
export function bruteForceAgentPages(hits: GeneratedHit[], agent: string, from: number | null, to: number | null, windowStart: (day: number) => number) {
  const pages = new Map<string, { views: number; visitors: Set<string>; failed: number }>();
  for (const hit of hits) {
    if (hit.agent?.name !== agent || hit.agent.verification === "spoofed" || !inRange(hit, from, to)) continue;
    let entry = pages.get(hit.page);
    if (!entry) pages.set(hit.page, (entry = { views: 0, visitors: new Set(), failed: 0 }));
    entry.views++;
    entry.visitors.add(`${windowStart(dayOf(hit))}:${hit.person}`);
    if (failed(hit)) entry.failed++;
  }
  const rows = [...pages].map(([path, e]) => ({ path, views: e.views, visitors: e.visitors.size, failed: e.failed }));
  rows.sort((a, b) => b.views - a.views || byteOrder(a.path, b.path));
  return { pages: rows };
}

/** AI fetches answered 4xx/5xx by brute force, per page and status. */
export function bruteForceFailures(hits: GeneratedHit[], from: number | null, to: number | null) {
  const failures = new Map<string, { path: string; status: number; views: number; agents: Set<string> }>();
  for (const hit of hits) {
    if (hit.kind !== "ai" || !hit.agent || !failed(hit) || !inRange(hit, from, to)) continue;
    const key = `${hit.page}\n${hit.status}`;
    let entry = failures.get(key);
    if (!entry) failures.set(key, (entry = { path: hit.page, status: hit.status as number, views: 0, agents: new Set() }));
    entry.views++;
    entry.agents.add(hit.agent.name);
  }
  const rows = [...failures.values()].map((f) => ({ ...f, agents: [...f.agents].sort(byteOrder) }));
  rows.sort((a, b) => b.views - a.views || byteOrder(a.path, b.path) || a.status - b.status);
  return { failures: rows };
}
