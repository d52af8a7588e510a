/** Generated traffic with a known answer: the brute-force side of the analytics exactness tests. */
import { DAY_MS } from "../../src/app/analytics/days.js";

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

export type Kind = keyof typeof USER_AGENTS;

export interface GeneratedHit {
  timestamp: string;
  path: string;
  ip: string;
  userAgent: string;
  kind: Kind;
  /** Who the test says this is, whatever form the IP was sent in. */
  person: string;
}

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

/**
 * People (an IP + a UA of one kind) viewing pages on several days around `firstDay`. Some IPv4
 * people are sometimes sent as IPv4-mapped IPv6: they must still be one visitor.
 */
export function generateTraffic(options: { seed: number; people: number; paths: number; firstDay: number; days: number; views: number }): GeneratedHit[] {
  const rand = random(options.seed);
  const people = Array.from({ length: options.people }, (_, i) => {
    const r = rand();
    const kind: Kind = r < 0.7 ? "human" : r < 0.9 ? "ai" : "bot";
    const v6 = rand() < 0.15;
    const ip = v6 ? `2001:db8::${(i + 1).toString(16)}` : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    return { id: `p${i}`, kind, ip, v6, userAgent: pick(rand, USER_AGENTS[kind]), homeDay: Math.floor(rand() * options.days) };
  });
  const hits: GeneratedHit[] = [];
  for (let n = 0; n < options.views; n++) {
    const person = pick(rand, people);
    // Most views near the person's home day, some anywhere: people return on several days.
    const offset = rand() < 0.6 ? person.homeDay : Math.floor(rand() * options.days);
    const at = (options.firstDay + offset) * DAY_MS + Math.floor(rand() * DAY_MS);
    const pathIndex = Math.floor(Math.pow(rand(), 2) * options.paths);
    const mapped = !person.v6 && rand() < 0.3;
    hits.push({
      timestamp: new Date(at).toISOString(),
      path: `/docs/page-${pathIndex}`,
      ip: mapped ? `::ffff:${person.ip}` : person.ip,
      userAgent: person.userAgent,
      kind: person.kind,
      person: person.id,
    });
  }
  return hits;
}

export interface Counts {
  human: number;
  ai: number;
  total: number;
}

/**
 * The answer by brute force: for each page, the distinct (window, person) pairs with a view of
 * that kind on a day in [from, to). `windowStart(day)` is the project's salt window.
 */
export function bruteForceVisitors(hits: GeneratedHit[], from: number | null, to: number | null, windowStart: (day: number) => number) {
  const sets = new Map<string, { human: Set<string>; ai: Set<string>; total: Set<string> }>();
  const site = { human: new Set<string>(), ai: new Set<string>(), total: new Set<string>() };
  for (const hit of hits) {
    if (hit.kind === "bot") continue;
    const day = Math.floor(Date.parse(hit.timestamp) / DAY_MS);
    if ((from !== null && day < from) || (to !== null && day >= to)) continue;
    const who = `${windowStart(day)}:${hit.person}`;
    let entry = sets.get(hit.path);
    if (!entry) sets.set(hit.path, (entry = { human: new Set(), ai: new Set(), total: new Set() }));
    for (const target of [entry, site]) {
      target[hit.kind].add(who);
      target.total.add(who);
    }
  }
  const rows = [...sets].map(([path, s]) => ({ path, human: s.human.size, ai: s.ai.size, total: s.total.size }));
  rows.sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { totals: { human: site.human.size, ai: site.ai.size, total: site.total.size }, visitors: rows };
}

export function bruteForceViews(hits: GeneratedHit[], from: number | null, to: number | null) {
  const byPath = new Map<string, Counts>();
  const totals = { human: 0, ai: 0, total: 0 };
  for (const hit of hits) {
    if (hit.kind === "bot") continue;
    const day = Math.floor(Date.parse(hit.timestamp) / DAY_MS);
    if ((from !== null && day < from) || (to !== null && day >= to)) continue;
    let entry = byPath.get(hit.path);
    if (!entry) byPath.set(hit.path, (entry = { human: 0, ai: 0, total: 0 }));
    for (const target of [entry, totals]) {
      target[hit.kind]++;
      target.total++;
    }
  }
  const rows = [...byPath].map(([path, c]) => ({ path, ...c }));
  rows.sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { totals, views: rows };
}
