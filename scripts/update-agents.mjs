// npm run update:agents — merges the AI-agent knowledge of maintained upstream datasets into one
// generated module with the provenance of every entry (vendor/agents/SOURCES.md lists the sources).
// `--check` regenerates in memory and fails when the committed module differs (CI runs the test
// that does the same).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import regexpTree from "regexp-tree";
import { requiredLiterals } from "./required-literals.mjs";

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** An installed package's version (read from node_modules: not every package exports its package.json). */
const installedVersion = (name) => JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")).version;
export const GENERATED_MODULE = path.join(ROOT, "src/app/analytics/classify/known-ai-agents.generated.ts");

/**
 * Decisions on agents the sources disagree about, or that no User-Agent match should make AI.
 * `bot`: stays an other bot (isbot still flags it); the reason is printed into the module.
 */
const CONTESTED = {
  // General search crawlers that also feed AI features: their AI use is opted out of with a
  // robots.txt token (Applebot-Extended, Google-Extended) that never appears as a User-Agent, and
  // their crawl serves classic search first.
  applebot: "general search crawler (AI use is the Applebot-Extended robots.txt token, not a User-Agent)",
  petalbot: "general search crawler (Huawei Petal Search)",
  // Google's generic crawler for research and product teams, not an AI product's.
  googleother: "Google's generic crawler (research and development), not AI-specific",
  "googleother-image": "Google's generic crawler (research and development), not AI-specific",
  "googleother-video": "Google's generic crawler (research and development), not AI-specific",
  // Link-preview fetchers: a person pasted a link into a chat or social app.
  facebookexternalhit: "link-preview fetcher",
  // Generic scraping frameworks and headless browsers: anyone runs them, for anything. Their
  // markdown fetches still count as AI (classify.ts), their other views as bots.
  scrapy: "generic scraping framework",
  lightpanda: "generic headless browser",
  // Tokens too generic to match as a word in a User-Agent without catching unrelated clients.
  code: "token too generic to match",
  cursor: "token too generic to match",
  spider: "token too generic to match",
  operator: "token too generic to match",
  openai: "token too generic to match (OpenAI's agents have their own tokens)",
  trae: "token too generic to match",
  yak: "token too generic to match",
  lcc: "token too generic to match",
  useai: "token too generic to match",
  wpbot: "token too generic to match",
};

const MATOMO_CATEGORIES = { "AI Agent": "assistant", "AI Assistant": "assistant", "AI Data Scraper": "crawler", "AI Search Crawler": "search" };

/** An agent's identity across sources: lower case, without a version suffix. */
const agentKey = (name) => name.toLowerCase().replace(/[\s/]+v?\d[\d.]*$/, "").trim();

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** `[OpenAI](https://openai.com)` → `OpenAI`; prose such as "Unclear at this time." → null. */
function operatorFromMarkdown(text) {
  const link = /^\[([^\]]+)\]\(/.exec(text);
  if (link) return link[1].trim();
  if (/^(unclear|unknown|no information)/i.test(text) || text.length > 60) return null;
  return text.replace(/\.$/, "").trim() || null;
}

/** ai.robots.txt's `function` is free text: user-triggered fetches, AI search, or data collection. */
function robotsCategory(entry) {
  const text = `${entry.function} ${entry.description}`;
  if (/assistant|agent|on behalf|user[- ]initiated|user prompts?|takes action/i.test(entry.function)) return "assistant";
  if (/search/i.test(entry.function)) return "search";
  if (/assistant|on behalf of (?:a )?users?|user[- ]initiated/i.test(text)) return "assistant";
  return "crawler";
}

/** Turns a crawler-user-agents pattern such as `[cC]laude[bB]ot` or `PerplexityBot\/` into a name. */
function nameFromPattern(pattern) {
  return pattern
    .replace(/\[\\s\\S\]\*|\.\*/g, " ")
    .replace(/\[(\w)(\w)\]/g, (_class, first, second) => (first === first.toUpperCase() ? first : second))
    .replace(/\\(.)/g, "$1")
    .replace(/[\^$]/g, "")
    .replace(/\/$/, "")
    .trim();
}

const matomoBots = () => require("node-device-detector/regexes/bots.js");
/** Matomo's own word boundary (node-device-detector's getBaseRegExp), to be used case-insensitive. */
const matomoPattern = (regex) => `(?:^|[^A-Z0-9_-]|[^A-Z0-9-]_|sprd-|MZ-)(?:${regex.replace(/\//g, "\\/").replace(/\+\+/g, "+")})`;

function matomoEntries() {
  const version = installedVersion("node-device-detector");
  const source = `matomo-device-detector (node-device-detector ${version})`;
  return matomoBots()
    .filter((bot) => MATOMO_CATEGORIES[bot.category])
    .map((bot) => ({
      name: bot.name,
      pattern: matomoPattern(bot.regex),
      flags: "i",
      category: MATOMO_CATEGORIES[bot.category],
      operator: bot.producer?.name ?? null,
      url: bot.url ?? bot.producer?.url ?? null,
      source,
    }));
}

function crawlerListEntries() {
  const version = installedVersion("crawler-user-agents");
  const source = `crawler-user-agents ${version}`;
  return require("crawler-user-agents")
    .filter((entry) => entry.tags?.includes("ai-crawler"))
    .map((entry) => {
      const name = nameFromPattern(entry.pattern);
      return {
        name,
        pattern: entry.pattern,
        flags: "",
        category: entry.tags.includes("search-engine") ? "search" : /-user\b/i.test(name) ? "assistant" : "crawler",
        operator: null,
        url: entry.url ?? null,
        source,
      };
    });
}

/**
 * ai.robots.txt's tokens whose operators' User-Agents spell them in another case, and where that
 * spelling is published. A token matches as spelled here and as ai.robots.txt spells it.
 */
const PUBLISHED_SPELLINGS = {
  "Meta-ExternalAgent": { spellings: ["meta-externalagent"], source: "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers" },
  "Meta-ExternalFetcher": { spellings: ["meta-externalfetcher"], source: "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers" },
  "Claude-Code": { spellings: ["claude-code"], source: "Claude Code's requests (test/fixtures/user-agents.json)" },
  Bravebot: { spellings: ["BraveBot"], source: "crawler-user-agents' instances" },
  NovaAct: { spellings: ["Novaact"], source: "crawler-user-agents' instances" },
  Factset_spyderbot: { spellings: ["factset_spyderbot"], source: "crawler-user-agents' instances" },
  Crawl4AI: { spellings: ["crawl4ai"], source: "crawler-user-agents' instances (crawl4ai-adapter)" },
};

function aiRobotsEntries() {
  const meta = JSON.parse(readFileSync(path.join(ROOT, "vendor/agents/ai-robots-txt.meta.json"), "utf8"));
  const robots = JSON.parse(readFileSync(path.join(ROOT, "vendor/agents/ai-robots-txt.json"), "utf8"));
  const source = `ai.robots.txt ${meta.commit.slice(0, 7)} (${meta.committedAt})`;
  const stale = Object.keys(PUBLISHED_SPELLINGS).filter((token) => !(token in robots));
  if (stale.length > 0) throw new Error(`PUBLISHED_SPELLINGS names tokens ai.robots.txt no longer lists: ${stale.join(", ")}`);
  return Object.entries(robots).map(([token, entry]) => ({
    name: token,
    // Whole words, case-sensitive: a User-Agent carries its operator's token as published, and
    // tokens of different operators may differ only in case (Exa's AI crawler `ExaBot`, Exalead's
    // search crawler `Exabot`), so a case-insensitive match counts another operator's bot as AI.
    pattern: `\\b(?:${[token, ...(PUBLISHED_SPELLINGS[token]?.spellings ?? [])].map(escapeRegExp).join("|")})\\b`,
    flags: "",
    category: robotsCategory(entry),
    operator: operatorFromMarkdown(entry.operator),
    url: /\]\((https?:[^)]+)\)/.exec(entry.operator)?.[1] ?? null,
    source,
  }));
}

/**
 * Crawlers crawler-user-agents knows that are not AI: they keep their class on markdown fetches
 * (classify.ts). HTTP libraries (`http-library`) and headless browsers (`browser-automation`) are
 * left out on purpose: agents fetch through them, so their markdown reads count as AI.
 */
const NON_AI_BOT_TAGS = new Set(["search-engine", "seo", "monitoring", "advertising", "social-preview", "feed-reader", "archiver", "academic", "scanner"]);

function nonAiBots() {
  return require("crawler-user-agents")
    .filter((entry) => !entry.tags?.includes("ai-crawler") && entry.tags?.some((tag) => NON_AI_BOT_TAGS.has(tag)))
    .map((entry) => ({ pattern: entry.pattern, literals: requiredLiterals(entry.pattern) }));
}

/**
 * Matomo's entries that name a kind of tool rather than one bot (its "Generic Bot" lists, scraping
 * frameworks, HTTP libraries): agents fetch through these too, so, like isbot's verdict, they only
 * say "a bot" and leave its markdown reads to count as AI (classify.ts).
 */
const GENERIC_TOOLS = new Set(["generic bot", "scrapy", "colly", "httpx"]);

/**
 * Matomo's bots that are not AI, in its order (first match wins): every one is a bot even where
 * isbot's patterns see a browser; a `named` one also keeps its class on markdown fetches.
 */
function matomoNonAiBots() {
  return matomoBots()
    .filter((bot) => !MATOMO_CATEGORIES[bot.category])
    .flatMap((bot) =>
      // One row per alternative: a long list of names then runs only where one of its names occurs
      // (its `^(?:chrome|firefox)$` alternative would otherwise run it on every browser).
      topLevelAlternatives(bot.regex).map((regex) => {
        const pattern = matomoPattern(regex);
        return { pattern, flags: "i", named: !GENERIC_TOOLS.has(agentKey(bot.name)), literals: requiredLiterals(pattern, "i") };
      }),
    )
    // Matomo's catch-all of generic words (bot, crawl, fetch…) names no bot and has no literal to
    // index by, so it would run on every User-Agent: isbot's patterns already cover that ground.
    .filter((bot) => bot.named || bot.literals !== null);
}

/** `a|b(c|d)` → `a`, `b(c|d)`; a pattern without a top-level `|` is its own only alternative. */
function topLevelAlternatives(regex) {
  const { body } = regexpTree.parse(`/${new RegExp(regex, "i").source}/i`);
  const alternatives = [];
  const collect = (node) => {
    if (node?.type === "Disjunction") {
      collect(node.left);
      collect(node.right);
    } else alternatives.push(node ? regexpTree.generate(node) : "");
  };
  collect(body);
  return alternatives;
}

/**
 * Every source's entries in precedence order (Matomo, then crawler-user-agents, then
 * ai.robots.txt): entries naming the same agent share the first source's name, category and
 * operator (a later source fills in what earlier ones lack) and list every source that knows it.
 */
export function mergeAgents() {
  const entries = [...matomoEntries(), ...crawlerListEntries(), ...aiRobotsEntries()];
  const skipped = [];
  const agents = new Map();
  for (const entry of entries) {
    const key = agentKey(entry.name.replace(/\$\d/g, ""));
    if (CONTESTED[key]) {
      skipped.push({ name: entry.name, source: entry.source, reason: CONTESTED[key] });
      continue;
    }
    const agent = agents.get(key);
    if (!agent) {
      agents.set(key, { name: entry.name, category: entry.category, operator: entry.operator, url: entry.url, sources: [entry.source], patterns: [entry] });
      continue;
    }
    agent.operator ??= entry.operator;
    agent.url ??= entry.url;
    if (!agent.sources.includes(entry.source)) agent.sources.push(entry.source);
    agent.patterns.push(entry);
  }
  return { agents: [...agents.values()], skipped };
}

export function renderModule({ agents, skipped }, nonAi = nonAiBots(), listedBots = matomoNonAiBots()) {
  const rows = agents.flatMap((agent) =>
    agent.patterns.map((p) =>
      JSON.stringify({
        // `$1` in a Matomo name is the entry's first capture group, filled in at match time.
        name: p.name.includes("$") ? p.name : agent.name,
        pattern: p.pattern,
        flags: p.flags,
        category: agent.category,
        operator: agent.operator ?? "unknown",
        url: agent.url,
        from: p.source,
        knownTo: agent.sources,
        literals: requiredLiterals(p.pattern, p.flags),
      }),
    ),
  );
  return `// Generated by \`npm run update:agents\` (scripts/update-agents.mjs): do not edit by hand.
// Sources, versions and licences: vendor/agents/SOURCES.md. Contains data derived from Matomo
// device-detector (LGPL-3.0-or-later), crawler-user-agents (MIT) and ai.robots.txt (MIT).
import type { AiCategory } from "../../../shared/analytics-vocabulary.js";

export interface GeneratedAiAgent {
  /** The agent's name; \`$1\` stands for the pattern's first capture group. */
  readonly name: string;
  readonly pattern: string;
  readonly flags: "" | "i";
  readonly category: AiCategory;
  readonly operator: string;
  readonly url: string | null;
  /** The source this pattern comes from. */
  readonly from: string;
  /** Every source that names this agent. */
  readonly knownTo: readonly string[];
  /** Lower-case strings one of which every match contains (null: none found); see literal-index.ts. */
  readonly literals: readonly string[] | null;
}

/** ${agents.length} agents, ${rows.length} patterns, first match wins. */
export const GENERATED_AI_AGENTS: readonly GeneratedAiAgent[] = [
${rows.map((row) => `  ${row},`).join("\n")}
];

/** crawler-user-agents' crawlers that are not AI (search engines, SEO, monitors, previews…), case-sensitive. */
export const NON_AI_BOTS: readonly { pattern: string; literals: readonly string[] | null }[] = [
${nonAi.map((row) => `  ${JSON.stringify(row)},`).join("\n")}
];

/** Matomo device-detector's bots that are not AI, in its order (first match wins); case-insensitive. */
export const LISTED_BOTS: readonly { pattern: string; flags: "i"; named: boolean; literals: readonly string[] | null }[] = [
${listedBots.map((row) => `  ${JSON.stringify(row)},`).join("\n")}
];

/** Entries of the sources deliberately not counted as AI, and why (scripts/update-agents.mjs, CONTESTED). */
export const NOT_COUNTED_AS_AI: readonly { name: string; source: string; reason: string }[] = [
${skipped.map((row) => `  ${JSON.stringify(row)},`).join("\n")}
];
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const merged = mergeAgents();
  const text = renderModule(merged);
  if (process.argv.includes("--check")) {
    if (readFileSync(GENERATED_MODULE, "utf8") !== text) {
      console.error(`${path.relative(ROOT, GENERATED_MODULE)} is out of date: run npm run update:agents and commit it.`);
      process.exit(1);
    }
  } else {
    writeFileSync(GENERATED_MODULE, text);
  }
  const perSource = new Map();
  for (const agent of merged.agents) for (const p of agent.patterns) perSource.set(p.source, (perSource.get(p.source) ?? 0) + 1);
  console.log(`${merged.agents.length} AI agents from ${[...perSource].map(([s, n]) => `${s}: ${n}`).join(", ")}; ${merged.skipped.length} entries not counted as AI`);
}
