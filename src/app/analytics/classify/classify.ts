import type { AiCategory, ReadFormat } from "../../../shared/analytics-vocabulary.js";
export { AI_CATEGORIES, type AiCategory } from "../../../shared/analytics-vocabulary.js";
import { isbot, isbotMatch } from "isbot";
import { AI_AGENTS } from "./ai-agents.js";
import { GENERATED_AI_AGENTS, LISTED_BOTS, NON_AI_BOTS } from "./known-ai-agents.generated.js";
import { LiteralIndex, type ListMatch } from "./literal-index.js";
import { isBrowserDespiteBotPattern } from "./browser-evidence.js";
import { isMarkdownRead } from "../ingest/read-format.js";
import { operatorOfAgent } from "./operator-names.js";

export type Classification = { class: "human" } | { class: "ai"; category: AiCategory; agent: string; operator: string } | { class: "bot" };
export interface HitSignals {
  userAgent: string;
  /** What the request read (read-format.ts): the caller works it out once, from path and Accept header. */
  format: ReadFormat;
}

/** The operator of an agent known only by what it did (a markdown fetch by an unnamed client). */
export const UNKNOWN_OPERATOR = "unknown";

/*
 * Decision order (first that applies):
 *  1. the curated table in ai-agents.ts;
 *  2. the AI agents of maintained upstream lists (Matomo device-detector, crawler-user-agents,
 *     ai.robots.txt), merged by `npm run update:agents` into known-ai-agents.generated.ts;
 *  3. a bot Matomo device-detector names (its non-AI bot list) is a bot, whatever isbot says;
 *  4. a markdown fetch (path `.md`/`.mdx`/`llms.txt`/`llms-full.txt`, or an Accept header ranking
 *     markdown above HTML) by a non-browser (isbot or Matomo's generic tools say bot, or no
 *     User-Agent) is an AI assistant, except crawlers that crawler-user-agents knows as non-AI
 *     (search engines, SEO, monitors, previews, ...), which stay bots;
 *  5. isbot, Matomo's generic tools (and an empty User-Agent) say bot, unless the word isbot
 *     flagged is a browser's device or platform name (browser-evidence.ts);
 *  6. human.
 * Steps 1, 2, 3 and 5 depend on the User-Agent alone and are cached per User-Agent; step 3 also needs
 * the format read, so the cache stores both outcomes and the request picks one.
 *
 * Returned objects are shared and frozen: copy before changing one.
 */
export function classifyHit(signals: HitSignals): Classification {
  const verdict = verdictFor(signals.userAgent);
  if (verdict.markdown === verdict.plain) return verdict.plain;
  return isMarkdownRead(signals.format) ? verdict.markdown : verdict.plain;
}

// ---------------------------------------------------------------------------------------------
// Per-User-Agent verdict, cached.

/** What a User-Agent is for an ordinary page, and for a markdown fetch. */
interface UaVerdict {
  readonly plain: Classification;
  readonly markdown: Classification;
}

const HUMAN: Classification = Object.freeze({ class: "human" });
const BOT: Classification = Object.freeze({ class: "bot" });
const HUMAN_VERDICT: UaVerdict = Object.freeze({ plain: HUMAN, markdown: HUMAN });
const BOT_VERDICT: UaVerdict = Object.freeze({ plain: BOT, markdown: BOT });
// Browsers always send a User-Agent, so an empty one reading markdown is a script, most likely an agent's.
const NO_USER_AGENT_VERDICT: UaVerdict = Object.freeze({ plain: BOT, markdown: aiResult("assistant", "markdown fetch (no user agent)", UNKNOWN_OPERATOR) });

const CACHE_LIMIT = 10_000;
// Keeps the cache's memory bounded (~10 MB at worst) when clients send huge User-Agent headers.
const MAX_CACHED_UA_LENGTH = 1_024;
const verdicts = new Map<string, UaVerdict>();

function verdictFor(userAgent: string): UaVerdict {
  const cached = verdicts.get(userAgent);
  if (cached) return cached;
  const verdict = decideUserAgent(userAgent);
  if (userAgent.length <= MAX_CACHED_UA_LENGTH) remember(userAgent, verdict);
  return verdict;
}

// Evicts in insertion order: refreshing recency on every hit would cost a delete + set per call.
function remember(userAgent: string, verdict: UaVerdict): void {
  if (verdicts.size >= CACHE_LIMIT) {
    const oldest = verdicts.keys().next().value;
    if (oldest !== undefined) verdicts.delete(oldest);
  }
  verdicts.set(userAgent, verdict);
}

function decideUserAgent(userAgent: string): UaVerdict {
  if (userAgent.trim() === "") return NO_USER_AGENT_VERDICT;
  const lists = KNOWN_LISTS.scan(userAgent);
  const ai = curatedAgent(userAgent) ?? generatedAgent(lists.first("aiAgents"));
  if (ai) return Object.freeze({ plain: ai, markdown: ai });
  const listed = lists.first("matomoBots")?.entry;
  if (listed?.named) return BOT_VERDICT;
  if (!listed && !isbot(userAgent)) return HUMAN_VERDICT;
  if (lists.first("nonAiCrawlers")) return BOT_VERDICT;
  if (isBrowserDespiteBotPattern(userAgent)) return HUMAN_VERDICT;
  return Object.freeze({ plain: BOT, markdown: aiResult("assistant", `markdown fetch (${clientName(userAgent)})`, UNKNOWN_OPERATOR) });
}

function aiResult(category: AiCategory, agent: string, listedOperator: string): Classification {
  return Object.freeze({ class: "ai", category, agent, operator: operatorOfAgent(agent, listedOperator) });
}

// ---------------------------------------------------------------------------------------------
// Known AI agents: the curated table, then the generated one from upstream lists.

interface KnownAgent {
  readonly pattern: RegExp;
  readonly result: Classification;
}

// One case-insensitive test finds every entry whatever its own flags; only a hit looks for which.
const ANY_CURATED = new RegExp(AI_AGENTS.map((agent) => `(?:${agent.pattern.source})`).join("|"), "i");

const CURATED: readonly KnownAgent[] = AI_AGENTS.map((agent) => ({
  pattern: agent.pattern,
  result: aiResult(agent.category, agent.name, agent.operator),
}));

function curatedAgent(userAgent: string): Classification | undefined {
  if (!ANY_CURATED.test(userAgent)) return undefined;
  return CURATED.find((agent) => agent.pattern.test(userAgent))?.result;
}

function generatedAgent(found: ListMatch<typeof KNOWN_LISTS_PATTERNS, "aiAgents"> | undefined): Classification | undefined {
  if (!found) return undefined;
  const { entry: agent, match } = found;
  return aiResult(agent.category, agent.name.replace(/\$(\d)/g, (_, group: string) => match[Number(group)] ?? ""), agent.operator);
}

// ---------------------------------------------------------------------------------------------
// The generated lists behind one literal index (only patterns whose literal occurs in the
// User-Agent are run, and the User-Agent is scanned once for all three):
// - aiAgents: the upstream lists' AI agents;
// - matomoBots: Matomo's non-AI bots, named ones (a bot on every read) and generic tools (bots
//   whose markdown reads are AI's);
// - nonAiCrawlers: crawlers crawler-user-agents knows and that are not AI, which keep their class
//   on markdown (which tags count is decided in scripts/update-agents.mjs).

const KNOWN_LISTS_PATTERNS = { aiAgents: GENERATED_AI_AGENTS, matomoBots: LISTED_BOTS, nonAiCrawlers: NON_AI_BOTS };
const KNOWN_LISTS = new LiteralIndex(KNOWN_LISTS_PATTERNS);

/** A short, low-cardinality name for an unknown client: `curl`, `python-requests`, `HeadlessChrome`. */
function clientName(userAgent: string): string {
  const name = /^[^\s/;(),]+/.exec(userAgent.slice(clientTokenStart(userAgent)).trimStart())?.[0] ?? "";
  return name.slice(0, 40) || "unknown client";
}

// Browser-shaped UAs all start with Mozilla/5.0: the product token isbot flagged (HeadlessChrome/…) says more.
function clientTokenStart(userAgent: string): number {
  const flagged = userAgent.startsWith("Mozilla/") ? isbotMatch(userAgent) : null;
  const at = flagged ? userAgent.indexOf(flagged) : -1;
  return at > 0 ? userAgent.slice(0, at).search(/[^\s;(),]*$/) : 0;
}
