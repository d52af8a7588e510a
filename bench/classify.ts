// npm run bench:classify — the cost of classifying a User-Agent: never seen before (every list and
// isbot consulted), and seen again (the per-User-Agent cache). Unseen strings are real templates
// from test/fixtures/user-agents.json with a version number no other string has, so every one
// misses the cache. BENCH_CLASSIFY_COUNT sets how many (default 20,000).
import { readFileSync } from "node:fs";
import { classifyHit } from "../src/app/analytics/classify.js";
import { percentile } from "./percentile.js";

const COUNT = Number(process.env.BENCH_CLASSIFY_COUNT ?? 20_000);

const fixture = JSON.parse(readFileSync("test/fixtures/user-agents.json", "utf8")) as { groups: Record<string, { rows: (string | { ua: string })[] }> };
const templates = Object.values(fixture.groups).flatMap((group) => group.rows.map((row) => (typeof row === "string" ? row : row.ua)));
// A fresh version in the first number of each template: a string the cache has never held.
const unseen = (n: number) => {
  const template = templates[n % templates.length] as string;
  return /\d+/.test(template) ? template.replace(/\d+/, String(100_000 + n)) : `${template} ${n}`;
};

const time = (userAgents: string[]) =>
  userAgents.map((userAgent) => {
    const started = process.hrtime.bigint();
    classifyHit({ userAgent, path: "/docs/intro" });
    return Number(process.hrtime.bigint() - started) / 1_000;
  });

// Warm the code paths (JIT) on strings the measured runs do not use.
time(Array.from({ length: 2_000 }, (_, n) => unseen(COUNT + n)));
const fresh = Array.from({ length: COUNT }, (_, n) => unseen(n));
const unseenTimes = time(fresh);
const repeatedTimes = time(fresh.slice(-5_000));
const row = (times: number[]) => ({ p50_us: +percentile(times, 50).toFixed(2), p99_us: +percentile(times, 99).toFixed(2), max_us: +Math.max(...times).toFixed(1) });
console.log(`classify: ${COUNT.toLocaleString("en")} unseen User-Agents from ${templates.length} real templates, then 5,000 of them again`);
console.table({ unseen: row(unseenTimes), repeated: row(repeatedTimes) });
