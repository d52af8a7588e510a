// npm run update:operators — which company operates each AI answer engine people arrive from, and
// each AI agent that reads the docs, so the agents report can set an operator's crawling against the
// people its answers send (docs/analytics/reports.md, "Crawl-to-referral ratio per AI operator").
//
// The companies' domains come from v2fly/domain-list-community (one list per company, e.g.
// `openai`: openai.com, chatgpt.com…; vendor/operators/SOURCES.md). A host is the company's whose
// list holds it (or a parent domain of it), climbing from a sub-list to the company that includes it
// (`google-deepmind` → `google`); a host no company list holds is its own registrable domain's
// (tldts, the Public Suffix List), so both sides still meet on `mistral.ai`.
//
// Reads the AI referrer hosts from src/app/analytics/ingest/known-referrers.generated.ts and the
// agents (with their documentation URL) from src/app/analytics/classify/known-ai-agents.generated.ts,
// and writes src/app/analytics/classify/ai-operators.generated.ts.
// `--from DIR`: rebuild vendor/operators/domain-lists.json from a checkout of domain-list-community
// first (its `data/` folder); `--check`: regenerate in memory and fail when the committed module differs.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getDomain } from "tldts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SNAPSHOT = path.join(ROOT, "vendor/operators/domain-lists.json");
const MODULE = path.join(ROOT, "src/app/analytics/classify/ai-operators.generated.ts");
const REPOSITORY = "v2fly/domain-list-community";

const referrerHosts = () =>
  [...readFileSync(path.join(ROOT, "src/app/analytics/ingest/known-referrers.generated.ts"), "utf8").matchAll(/\["([^"]+)", ?\["([^"]+)", ?"ai"\]\]/g)].map(([, host, name]) => ({ host, name }));

const aiAgents = () =>
  readFileSync(path.join(ROOT, "src/app/analytics/classify/known-ai-agents.generated.ts"), "utf8")
    .split("\n")
    .filter((line) => line.startsWith('  {"name"'))
    .map((line) => JSON.parse(line.trim().replace(/,$/, "")));

/** Lists that gather many companies' domains by theme or region: never a company. */
const isGathering = (name) => /^(category-|geolocation-|tld-|private$|cn$)|[@!]|-cn$|-ads/.test(name);

/** One list file: its domains (`domain:` and `full:`, attributes dropped) and the lists it includes. */
function parseList(text) {
  const domains = [];
  const includes = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const [entry] = line.split(/\s+/);
    if (entry.startsWith("include:")) includes.push(entry.slice("include:".length).split("@")[0]);
    else if (entry.startsWith("full:")) domains.push(entry.slice("full:".length).toLowerCase());
    else if (!entry.includes(":")) domains.push(entry.toLowerCase());
    else if (entry.startsWith("domain:")) domains.push(entry.slice("domain:".length).toLowerCase());
    // `regexp:` and `keyword:` entries name no domain.
  }
  return { domains, includes };
}

/** The companies a host belongs to: the lists holding it or a parent domain, climbed to the company including them. */
function resolver(lists) {
  const holders = new Map();
  for (const [name, list] of Object.entries(lists)) {
    if (isGathering(name)) continue;
    for (const domain of list.domains) holders.set(domain, [...(holders.get(domain) ?? []), name]);
  }
  const parents = new Map();
  for (const [name, list] of Object.entries(lists)) {
    if (isGathering(name)) continue;
    for (const child of list.includes) parents.set(child, [...(parents.get(child) ?? []), name]);
  }
  /**
   * The lists from `name` up to the company including it: `google-deepmind`, `google`, `alphabet`.
   * Of several including lists, the one leading furthest up (`google` over `google-gemini`); a tie stops.
   */
  const climb = (name, path = [name]) => {
    const ups = (parents.get(name) ?? []).filter((parent) => !path.includes(parent)).map((parent) => climb(parent, [...path, parent]));
    ups.sort((a, b) => b.length - a.length);
    return ups.length > 0 && (ups.length === 1 || ups[0].length > ups[1].length) ? ups[0] : path;
  };
  return (host) => {
    for (let at = host; at.includes("."); at = at.slice(at.indexOf(".") + 1)) {
      const found = holders.get(at);
      if (found?.length === 1) {
        const path = climb(found[0]);
        return { operator: path.at(-1), path, from: `${REPOSITORY} ${found[0]}` };
      }
    }
    const domain = getDomain(host);
    return domain ? { operator: domain, path: [], from: "registrable domain" } : null;
  };
}

const letters = (text) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * An agent's operator: its URL's company when the agent's sources name that company (a list on the
 * climb matches the operator's name: "Google Inc." and `google` → `alphabet`), or when they name
 * none; else the company list named like the operator ("ByteDance" → `bytedance`: the URL was a
 * page about the agent elsewhere); else the URL's registrable domain when no company holds it.
 */
function agentOperator(agent, resolve, lists) {
  const found = resolve(new URL(agent.url).hostname.replace(/^www\./, ""));
  const named = agent.operator && agent.operator !== "unknown" && !agent.operator.startsWith("http") ? letters(agent.operator) : null;
  if (!found) return null;
  if (found.from === "registrable domain" || named === null || found.path.some((list) => named.includes(letters(list)))) return found.operator;
  const byName = Object.keys(lists).find((list) => !isGathering(list) && letters(list).length >= 3 && named.startsWith(letters(list)));
  return byName ? resolve(lists[byName].domains[0] ?? "")?.operator ?? byName : null;
}

/** Only the lists a referrer host or an agent's URL reaches are kept (with what they include), so the snapshot stays small. */
function snapshotFrom(dir) {
  const all = {};
  for (const file of readdirSync(path.join(dir, "data"))) all[file] = parseList(readFileSync(path.join(dir, "data", file), "utf8"));
  const resolve = resolver(all);
  const hosts = [...referrerHosts().map((r) => r.host), ...aiAgents().flatMap((agent) => (agent.url ? [new URL(agent.url).hostname] : []))];
  const keep = new Set();
  const add = (name) => {
    if (keep.has(name) || !all[name]) return;
    keep.add(name);
    all[name].includes.forEach(add);
  };
  for (const host of hosts) {
    const found = resolve(host.replace(/^www\./, ""));
    if (found && found.from !== "registrable domain") found.path.forEach(add);
  }
  for (const agent of aiAgents()) {
    const named = agent.operator ? letters(agent.operator) : "";
    const byName = Object.keys(all).find((list) => !isGathering(list) && letters(list).length >= 3 && named.startsWith(letters(list)));
    if (byName) add(byName);
  }
  // The lists that include a kept one, so a sub-list still climbs to its company.
  for (const [name, list] of Object.entries(all)) if (!isGathering(name) && list.includes.some((child) => keep.has(child))) add(name);
  const commit = execFileSync("git", ["-C", dir, "log", "-1", "--format=%H %cs"], { encoding: "utf8" }).trim().split(" ");
  return { repository: REPOSITORY, commit: commit[0], date: commit[1], lists: Object.fromEntries([...keep].sort().map((name) => [name, all[name]])) };
}

const fromIndex = process.argv.indexOf("--from");
if (fromIndex >= 0) writeFileSync(SNAPSHOT, `${JSON.stringify(snapshotFrom(process.argv[fromIndex + 1]))}\n`);
if (!existsSync(SNAPSHOT)) throw new Error(`${SNAPSHOT} is missing: run with --from <checkout of ${REPOSITORY}>`);
const snapshot = JSON.parse(readFileSync(SNAPSHOT, "utf8"));
const resolve = resolver(snapshot.lists);

const ofHost = new Map();
const products = new Map();
for (const { host, name } of referrerHosts()) {
  const found = resolve(host);
  if (!found) continue;
  ofHost.set(host, found.operator);
  products.set(found.operator, [...new Set([...(products.get(found.operator) ?? []), name])]);
}
const ofAgent = new Map();
const agentOperators = new Map();
for (const agent of aiAgents()) {
  if (!agent.url || ofAgent.has(agent.name)) continue;
  const operator = agentOperator(agent, resolve, snapshot.lists);
  // Names made from the User-Agent ($1) are not one agent's.
  if (!operator || agent.name.includes("$")) continue;
  ofAgent.set(agent.name, operator);
  if (agent.operator && agent.operator !== "unknown" && !agent.operator.startsWith("http")) agentOperators.set(operator, [...(agentOperators.get(operator) ?? []), agent.operator]);
}
/** A company's name as its agents' sources write it most often; else its list's name, capitalised; else its products'; else its key. */
const names = new Map();
for (const operator of new Set([...ofHost.values(), ...ofAgent.values()])) {
  const counts = new Map();
  for (const name of agentOperators.get(operator) ?? []) counts.set(name, (counts.get(name) ?? 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
  const listed = snapshot.lists[operator] ? operator.replace(/(^|-)([a-z])/g, (_, dash, letter) => `${dash ? " " : ""}${letter.toUpperCase()}`) : null;
  names.set(operator, best ?? listed ?? products.get(operator)?.join(", ") ?? operator);
}

const entries = (map) => [...map].sort(([a], [b]) => (a < b ? -1 : 1));
const text = `// Generated by scripts/update-operators.mjs from ${snapshot.repository} at ${snapshot.commit} (${snapshot.date}); do not edit.
// Who operates each AI answer engine (by referrer host) and each AI agent (by its documentation URL): vendor/operators/SOURCES.md.

export const AI_OPERATOR_SOURCE = ${JSON.stringify({ repository: snapshot.repository, commit: snapshot.commit, date: snapshot.date })} as const;

/** An AI answer engine's host (as the referrer list has it) → its operator. */
export const AI_OPERATOR_OF_HOST: ReadonlyMap<string, string> = new Map([
${entries(ofHost).map((entry) => `  ${JSON.stringify(entry)},`).join("\n")}
]);

/** An AI agent's name → its operator. */
export const AI_OPERATOR_OF_AGENT: ReadonlyMap<string, string> = new Map([
${entries(ofAgent).map((entry) => `  ${JSON.stringify(entry)},`).join("\n")}
]);

/** An operator → the name it is shown with. */
export const AI_OPERATOR_NAMES: ReadonlyMap<string, string> = new Map([
${entries(names).map((entry) => `  ${JSON.stringify(entry)},`).join("\n")}
]);
`;

if (process.argv.includes("--check")) {
  if (readFileSync(MODULE, "utf8") !== text) {
    console.error(`${path.relative(ROOT, MODULE)} is not what the vendored lists make: run npm run update:operators`);
    process.exit(1);
  }
} else {
  writeFileSync(MODULE, text);
  console.log(`Wrote ${path.relative(ROOT, MODULE)}: ${ofHost.size} answer-engine hosts and ${ofAgent.size} agents, ${names.size} operators.`);
}
