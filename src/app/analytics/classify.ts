import type { AiCategory, ReadFormat } from "../../shared/analytics-vocabulary.js";
export { AI_CATEGORIES, type AiCategory } from "../../shared/analytics-vocabulary.js";
import { isbot, isbotMatch } from "isbot";
import { AI_AGENTS } from "./ai-agents.js";
import { GENERATED_AI_AGENTS, NON_AI_BOTS } from "./known-ai-agents.generated.js";
import { LiteralIndex } from "./literal-index.js";
import { isBrowserDespiteBotPattern } from "./browser-evidence.js";
import { isMarkdownRead } from "./read-format.js";

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
 *  3. a markdown fetch (path `.md`/`.mdx`/`llms.txt`/`llms-full.txt`, or an Accept header ranking
 *     markdown above HTML) by a non-browser (isbot says bot, or no User-Agent) is an AI assistant,
 *     except crawlers that crawler-user-agents knows as non-AI (search engines, SEO, monitors,
 *     previews, ...), which stay bots;
 *  4. isbot (and an empty User-Agent) says bot;
 *  5. human.
 * Steps 1, 2 and 4 depend on the User-Agent alone and are cached per User-Agent; step 3 also needs
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
  const ai = curatedAgent(userAgent) ?? generatedAgent(userAgent);
  if (ai) return Object.freeze({ plain: ai, markdown: ai });
  if (!isbot(userAgent)) return HUMAN_VERDICT;
  if (KNOWN_NON_AI_BOTS.first(userAgent)) return BOT_VERDICT;
  if (isBrowserDespiteBotPattern(userAgent)) return HUMAN_VERDICT;
  return Object.freeze({ plain: BOT, markdown: aiResult("assistant", `markdown fetch (${clientName(userAgent)})`, UNKNOWN_OPERATOR) });
}

function aiResult(category: AiCategory, agent: string, operator: string): Classification {
  return Object.freeze({ class: "ai", category, agent, operator });
}

// ---------------------------------------------------------------------------------------------
// Known AI agents: the curated table, then the generated one from upstream lists (through its
// literal index: only patterns whose literal occurs in the User-Agent are run).

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

const GENERATED = new LiteralIndex(GENERATED_AI_AGENTS);

function generatedAgent(userAgent: string): Classification | undefined {
  const found = GENERATED.first(userAgent);
  if (!found) return undefined;
  const { entry: agent, match } = found;
  return aiResult(agent.category, agent.name.replace(/\$(\d)/g, (_, group: string) => match[Number(group)] ?? ""), agent.operator);
}

// ---------------------------------------------------------------------------------------------
// Bots that keep their class on markdown: crawlers crawler-user-agents knows and that are not AI
// (which tags count is decided in scripts/update-agents.mjs).

const KNOWN_NON_AI_BOTS = new LiteralIndex(NON_AI_BOTS);

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
