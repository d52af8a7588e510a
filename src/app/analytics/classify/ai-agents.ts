/**
 * The curated table of AI user agents, for agents no upstream list names well (the generated
 * known-ai-agents.generated.ts has the rest). It is checked before anything else, so an entry here
 * decides the class of every User-Agent its pattern matches.
 *
 * To add an agent:
 *  1. Append `{ name, pattern, category, operator, url? }` below. The first matching entry wins,
 *     so put a specific pattern (e.g. Claude Code) before a general one it overlaps (Claude-User).
 *  2. `pattern` is matched anywhere in the User-Agent; use only the `i` flag (no `g`/`y`, which
 *     would make `test()` stateful).
 *  3. Add the real User-Agent string you saw to test/fixtures/user-agents.json with its expected
 *     class: the unit test fails for an entry whose pattern matches no fixture row.
 *
 * Categories: `assistant` fetches a page because a person asked (chat assistants, coding agents and
 * their HTTP clients, IDE browsers driven by an agent); `crawler` collects training or dataset
 * content; `search` indexes pages for an AI search product.
 *
 * Not listed on purpose: Google-Extended and Applebot-Extended are robots.txt tokens only (those
 * crawls arrive as Googlebot / Applebot), and agents whose fetchers send a plain desktop-Chrome
 * User-Agent (Cline-family URL fetchers, OpenCode's webfetch, ChatGPT agent) cannot be told apart
 * from people by this header.
 */

import type { AiCategory } from "../../../shared/analytics-vocabulary.js";

export interface AiAgent {
  readonly name: string;
  readonly pattern: RegExp;
  readonly category: AiCategory;
  readonly operator: string;
  readonly url?: string;
}

const OPENAI_BOTS = "https://platform.openai.com/docs/bots";
const PERPLEXITY_BOTS = "https://docs.perplexity.ai/guides/bots";
const GOOGLE_USER_FETCHERS = "https://developers.google.com/search/docs/crawling-indexing/google-user-triggered-fetchers";
const META_CRAWLERS = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers";
const AMAZON_BOTS = "https://developer.amazon.com/amazonbot";

export const AI_AGENTS: readonly AiAgent[] = [
  // Assistants: chat products fetching a page for the person asking.
  { name: "Claude Code", pattern: /claude-code\//i, category: "assistant", operator: "Anthropic" },
  { name: "Claude-User", pattern: /Claude-User/i, category: "assistant", operator: "Anthropic" },
  { name: "ChatGPT-User", pattern: /ChatGPT-User/i, category: "assistant", operator: "OpenAI", url: OPENAI_BOTS },
  { name: "Perplexity-User", pattern: /Perplexity-?User/i, category: "assistant", operator: "Perplexity", url: PERPLEXITY_BOTS },
  { name: "MistralAI-User", pattern: /MistralAI-User/i, category: "assistant", operator: "Mistral AI", url: "https://docs.mistral.ai/robots" },
  // Fetches in real time to answer a DuckDuckGo query; crawler-user-agents calls it a search engine.
  {
    name: "DuckAssistBot",
    pattern: /DuckAssistBot/i,
    category: "assistant",
    operator: "DuckDuckGo",
    url: "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot",
  },
  { name: "Meta-ExternalFetcher", pattern: /meta-externalfetcher/i, category: "assistant", operator: "Meta", url: META_CRAWLERS },
  { name: "Amzn-User", pattern: /Amzn-User/i, category: "assistant", operator: "Amazon", url: AMAZON_BOTS },
  { name: "Google-NotebookLM", pattern: /Google-NotebookLM/i, category: "assistant", operator: "Google", url: GOOGLE_USER_FETCHERS },
  // A research run is started by one person's question and reports back to them.
  { name: "Gemini Deep Research", pattern: /Gemini-Deep-Research/i, category: "assistant", operator: "Google" },
  { name: "Project Mariner", pattern: /GoogleAgent-Mariner/i, category: "assistant", operator: "Google" },
  { name: "Google-Agent", pattern: /Google-Agent\b/i, category: "assistant", operator: "Google", url: GOOGLE_USER_FETCHERS },
  { name: "kagi-fetcher", pattern: /kagi-fetcher/i, category: "assistant", operator: "Kagi" },
  { name: "Manus", pattern: /Manus-User\//i, category: "assistant", operator: "Manus" },
  { name: "Amazon Bedrock AgentCore Browser", pattern: /Amazon-Bedrock-AgentCore-Browser/i, category: "assistant", operator: "Amazon" },

  // Assistants: coding agents, their CLIs and the agent-driven browsers of AI IDEs (Electron UAs).
  { name: "Gemini CLI", pattern: /Google-Gemini-CLI/i, category: "assistant", operator: "Google" },
  { name: "OpenAI Codex", pattern: /\bcodex_(?:cli_rs|vscode|exec)\//i, category: "assistant", operator: "OpenAI" },
  { name: "GitHub Copilot CLI", pattern: /^copilot\/\d/i, category: "assistant", operator: "GitHub" },
  // VS Code's own Electron UA: Copilot's fetch tool loads pages in a hidden VS Code window.
  { name: "GitHub Copilot (VS Code)", pattern: /\bCode\/\d+\.\d+\.\d+ Chrome\/[\d.]+ Electron\//, category: "assistant", operator: "GitHub" },
  { name: "Cursor", pattern: /\bCursor\/\d/, category: "assistant", operator: "Anysphere" },
  { name: "Windsurf", pattern: /\bWindsurf\/\d/, category: "assistant", operator: "Windsurf" },
  { name: "Antigravity", pattern: /\bAntigravity\/\d/, category: "assistant", operator: "Google" },
  { name: "Kiro", pattern: /\bKiro\/\d/, category: "assistant", operator: "Amazon" },
  { name: "Trae", pattern: /\bTrae\/\d/, category: "assistant", operator: "ByteDance" },
  { name: "Zed", pattern: /^Zed\/\d/, category: "assistant", operator: "Zed Industries" },
  { name: "Aider", pattern: /^Aider\/v?\d/i, category: "assistant", operator: "Aider", url: "https://aider.chat/" },
  { name: "OpenCode", pattern: /opencode-smartfetch/i, category: "assistant", operator: "OpenCode" },
  // crawler-user-agents tags Devin as an AI crawler; it browses for the engineer who gave it a task.
  { name: "Devin", pattern: /\bDevin\/\d/, category: "assistant", operator: "Cognition", url: "https://devin.ai" },

  // Crawlers: training and dataset collection.
  { name: "GPTBot", pattern: /GPTBot/i, category: "crawler", operator: "OpenAI", url: OPENAI_BOTS },
  { name: "ClaudeBot", pattern: /ClaudeBot/i, category: "crawler", operator: "Anthropic" },
  { name: "anthropic-ai", pattern: /anthropic-ai/i, category: "crawler", operator: "Anthropic" },
  { name: "CCBot", pattern: /CCBot/i, category: "crawler", operator: "Common Crawl", url: "https://commoncrawl.org/ccbot" },
  { name: "Bytespider", pattern: /Bytespider/i, category: "crawler", operator: "ByteDance" },
  { name: "Meta-ExternalAgent", pattern: /meta-externalagent/i, category: "crawler", operator: "Meta", url: META_CRAWLERS },
  { name: "cohere-ai", pattern: /cohere-(?:ai|training-data-crawler)/i, category: "crawler", operator: "Cohere" },
  // crawler-user-agents tags these two as SEO / search-engine bots; both feed AI products.
  { name: "Amazonbot", pattern: /Amazonbot/i, category: "crawler", operator: "Amazon", url: AMAZON_BOTS },
  { name: "Diffbot", pattern: /Diffbot/i, category: "crawler", operator: "Diffbot", url: "https://www.diffbot.com" },

  // Search: indexers behind AI search and answer engines.
  { name: "OAI-SearchBot", pattern: /OAI-SearchBot/i, category: "search", operator: "OpenAI", url: OPENAI_BOTS },
  { name: "Claude-SearchBot", pattern: /Claude-SearchBot/i, category: "search", operator: "Anthropic" },
  { name: "PerplexityBot", pattern: /PerplexityBot/i, category: "search", operator: "Perplexity", url: PERPLEXITY_BOTS },
  { name: "AzureAI-SearchBot", pattern: /AzureAI-SearchBot/i, category: "search", operator: "Microsoft" },
  { name: "Amzn-SearchBot", pattern: /Amzn-SearchBot/i, category: "search", operator: "Amazon", url: AMAZON_BOTS },
  { name: "Meta-WebIndexer", pattern: /meta-webindexer/i, category: "search", operator: "Meta", url: META_CRAWLERS },
  { name: "YouBot", pattern: /YouBot/i, category: "search", operator: "You.com" },
];
