import { KNOWN_REFERRER_HOSTS, KNOWN_REFERRER_PATTERNS } from "./known-referrers.generated.js";
import { AI_OPERATOR_OF_HOST } from "../classify/ai-operators.generated.js";

import type { REFERRAL_CHANNELS } from "../../../shared/analytics-vocabulary.js";
import { escapeRegExp } from "../../../shared/regexp.js";

export type ReferralChannel = (typeof REFERRAL_CHANNELS)[number];

/** Where a view came from: a source (a referrer's host, or a campaign's `utm_source`) and its channel. */
export interface Referral {
  source: string;
  channel: ReferralChannel;
}

/** A view that arrived with no referrer and no campaign tag: typed, bookmarked, or from an app that sends none. */
export const DIRECT: Referral = { source: "(direct)", channel: "direct" };
const MAX_SOURCE_LENGTH = 100;

/** `{}` in a listed host stands for a country code: two letters, or a combined TLD like `co.uk` or `com.au`. */
const PATTERNS = KNOWN_REFERRER_PATTERNS.map(([host, name, channel]) => ({
  test: new RegExp(`^${host.split("{}").map((part) => escapeRegExp(part)).join("(?:[a-z]{2}|(?:com|org|net|co|it|edu)\\.[a-z]{2})")}$`),
  name,
  channel,
}));

/** The channel of a host or source name: the listed host itself, else its parent domains (m.facebook.com is facebook.com's). */
export function channelOf(name: string): { name: string; channel: ReferralChannel } | null {
  let host = name.toLowerCase().replace(/^www\./, "");
  for (;;) {
    const known = KNOWN_REFERRER_HOSTS.get(host);
    if (known) return { name: known[0], channel: known[1] };
    const pattern = PATTERNS.find((candidate) => candidate.test.test(host));
    if (pattern) return { name: pattern.name, channel: pattern.channel };
    const dot = host.indexOf(".");
    if (dot < 0 || host.indexOf(".", dot + 1) < 0) return null;
    host = host.slice(dot + 1);
  }
}

/** A referrer's host, lowercase, without `www.`, port or credentials; null when it is no http(s) URL. */
export function referrerHost(referrer: string): string | null {
  try {
    const url = new URL(referrer.trim());
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.hostname.replace(/^www\./, "").replace(/\.$/, "") || null;
  } catch {
    return null;
  }
}

/** `utm_source` of a page path's query (`/guide?utm_source=chatgpt.com`), lowercase; null without one. */
export function utmSourceOf(path: string): string | null {
  const query = path.indexOf("?");
  if (query < 0) return null;
  const value = new URLSearchParams(path.slice(query + 1).split("#")[0]).get("utm_source")?.trim().toLowerCase();
  return value ? value.slice(0, MAX_SOURCE_LENGTH) : null;
}

/**
 * Where a view came from (docs/architecture.md, "Analytics"): its `utm_source`, else its
 * referrer's host; no referrer is direct; a referrer on one of the site's own hosts is a step
 * within the site, not an arrival (null). Only the host is ever kept, never a referrer's path or
 * query, so nothing stored identifies a person.
 */
export function referralOf(view: { path: string; referrer?: string | undefined }, ownHosts: ReadonlySet<string>): Referral | null {
  const campaign = utmSourceOf(view.path);
  const host = view.referrer ? referrerHost(view.referrer) : null;
  if (campaign) return { source: campaign, channel: channelOf(campaign)?.channel ?? "other" };
  if (!view.referrer?.trim()) return DIRECT;
  if (host === null) return { source: "(unknown)", channel: "other" };
  if (ownHosts.has(host)) return null;
  return { source: host.slice(0, MAX_SOURCE_LENGTH), channel: channelOf(host)?.channel ?? "other" };
}

/** The channel of a stored source (the report classifies with the current list). */
export const channelOfSource = (source: string): ReferralChannel =>
  source === DIRECT.source ? "direct" : source.startsWith("(") ? "other" : (channelOf(source)?.channel ?? "other");

/** The company operating the AI answer engine a source is (its host or a parent's: ai-operators.generated.ts); null for any other source. */
export function aiOperatorOfSource(source: string): string | null {
  for (let host = source.toLowerCase().replace(/^www\./, ""); ; host = host.slice(host.indexOf(".") + 1)) {
    const operator = AI_OPERATOR_OF_HOST.get(host);
    if (operator) return operator;
    if (host.indexOf(".") < 0 || host.indexOf(".", host.indexOf(".") + 1) < 0) return null;
  }
}
