// Builds labelled User-Agent lists for `BENCH_UA_LISTS=<out> npm run bench:classify` from the test
// fixtures of two projects this classifier does not ship (clone them anywhere):
//   node scripts/build-ua-lists.mjs <matomo-org/device-detector clone> <omrilotan/isbot clone> <out dir>
// Matomo: Tests/fixtures/bots.yml (bots with a category; "AI …" categories are AI agents) and every
// device fixture whose client is a browser. isbot: fixtures/browsers.yml and fixtures/crawlers.yml.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";

const [matomoDir, isbotDir, outDir] = process.argv.slice(2);
if (!matomoDir || !isbotDir || !outDir) {
  console.error("usage: node scripts/build-ua-lists.mjs <device-detector clone> <isbot clone> <out dir>");
  process.exit(2);
}
const revision = (dir) => execFileSync("git", ["-C", dir, "log", "-1", "--format=%h, %cs"], { encoding: "utf8" }).trim();
const readYaml = (file) => parse(readFileSync(file, "utf8"), { maxAliasCount: -1 }) ?? [];
mkdirSync(outDir, { recursive: true });

const fixtures = path.join(matomoDir, "Tests/fixtures");
const bots = readYaml(path.join(fixtures, "bots.yml"));
const isAi = (row) => String(row.bot?.category ?? "").startsWith("AI");
const browsers = readdirSync(fixtures)
  .filter((name) => name.endsWith(".yml") && !name.startsWith("bots") && !name.startsWith("clienthints"))
  .flatMap((name) => readYaml(path.join(fixtures, name)))
  .filter((row) => row.client?.type === "browser" && row.user_agent)
  .map((row) => row.user_agent);
writeFileSync(
  path.join(outDir, "matomo.json"),
  JSON.stringify({
    source: `matomo-org/device-detector Tests/fixtures (${revision(matomoDir)})`,
    ai: bots.filter(isAi).map((row) => row.user_agent),
    bot: bots.filter((row) => row.bot && !isAi(row)).map((row) => row.user_agent),
    browser: browsers,
  }),
);

// isbot's browsers.yml groups strings under titles, and its own titles say two groups are neither
// plain browsers nor bots it flags: "Insignificant bots" (bots not worth blocking) and "Glitches
// and Misidentified Browsers" (strings bot databases list as bots). Contested, so on neither side.
const flatten = (groups) => Object.values(groups ?? {}).flatMap((list) => list ?? []);
const contested = /insignifica?n?t bots|glitches and misidentified/i;
const browserGroups = Object.entries(readYaml(path.join(isbotDir, "fixtures/browsers.yml"))).filter(([title]) => !contested.test(title));
writeFileSync(
  path.join(outDir, "isbot.json"),
  JSON.stringify({
    source: `omrilotan/isbot fixtures (${revision(isbotDir)})`,
    browser: flatten(Object.fromEntries(browserGroups)),
    bot: flatten(readYaml(path.join(isbotDir, "fixtures/crawlers.yml"))),
  }),
);
console.log(`wrote matomo.json and isbot.json to ${outDir}`);
