// npm run bench:classify — the cost of classifying a User-Agent: never seen before (every list and
// isbot consulted), and seen again (the per-User-Agent cache). Unseen strings are real templates
// from test/fixtures/user-agents.json with a version number no other string has, so every one
// misses the cache. BENCH_CLASSIFY_COUNT sets how many (default 20,000).
// BENCH_UA_LISTS names a directory of labelled User-Agent lists kept outside the repository (each
// file `{"source": "...", "ai": [...], "browser": [...], "bot": [...]}`, any of the three lists):
// the bench then prints, per list, the share classed as expected (AI agents AI, browsers human,
// other bots not human).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { classifyHit } from "../src/app/analytics/classify/classify.js";
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
    classifyHit({ userAgent, format: "html" });
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

const listsDir = process.env.BENCH_UA_LISTS;
if (listsDir) {
  const rows = [];
  const misses: string[] = [];
  for (const file of readdirSync(listsDir).filter((name) => name.endsWith(".json"))) {
    const list = JSON.parse(readFileSync(path.join(listsDir, file), "utf8")) as { source?: string; ai?: string[]; browser?: string[]; bot?: string[] };
    // Each measure counts the strings of one class; the strings to show are the ones it got wrong.
    const checks = [
      ["AI agents classed AI", list.ai, "ai", "missed"],
      ["browsers classed human", list.browser, "human", "missed"],
      ["other bots classed human", list.bot, "human", "counted"],
    ] as const;
    for (const [measure, userAgents, asClass, wrong] of checks) {
      if (!userAgents?.length) continue;
      const counted: string[] = [];
      const missed: string[] = [];
      for (const userAgent of userAgents) (classifyHit({ userAgent, format: "html" }).class === asClass ? counted : missed).push(userAgent);
      const shown = wrong === "counted" ? counted : missed;
      misses.push(...shown.slice(0, 5).map((ua) => `${file} ${measure}, ${wrong}: ${ua}`));
      rows.push({ list: list.source ?? file, measure, strings: userAgents.length, share: `${((100 * counted.length) / userAgents.length).toFixed(2)}%` });
    }
  }
  console.table(rows);
  if (process.env.BENCH_UA_MISSES) console.log(misses.join("\n"));
}
