import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, epochDay } from "../../src/shared/epoch-days.js";
import { MAX_PATH_LENGTH } from "../../src/shared/analytics-schemas.js";
import { normalizePagePath } from "../../src/app/analytics/ingest/page-path.js";
import { parseCsv } from "../helpers/csv.js";
import { rfcJudge } from "../helpers/robots-rfc.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { publishedAddress, USER_AGENTS } from "../helpers/traffic.js";
import { VERDICTS, type ReferenceVerdict } from "../fixtures/robotstxt-reference.js";

// The reference parser's suite (test/fixtures/robotstxt-reference.ts) through the path a view
// takes: each fact's file is a robots.txt version of its own, and its agent's fetch of its URL a
// hit sent to the API, judged by the rollup and read back from the reports: the verdict per version
// (robots/changes) and the disallowed row under the page, with the deciding rule's line
// (robots/disallowed). The reference's crawler names become real AI agents (the agents a hit can
// be), in the files' User-agent lines too, their case kept.

/** A reference name, the AI agent standing for it, how it is sent and where from (verified agents from their operator's addresses). */
const AGENTS: Record<string, { name: string; userAgent: string; list?: string }> = {
  foobot: { name: "GPTBot", userAgent: USER_AGENTS.ai[1], list: "openai-gptbot" },
  barbot: { name: "PerplexityBot", userAgent: USER_AGENTS.ai[2], list: "perplexity-bot" },
  bazbot: { name: "Meta-ExternalAgent", userAgent: "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)" },
  quxbot: { name: "ChatGPT-User", userAgent: USER_AGENTS.ai[0], list: "openai-chatgpt-user" },
  foo: { name: "Bytespider", userAgent: "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)" },
  bar: { name: "ClaudeBot", userAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", list: "anthropic-bots" },
  // A name that is no product token, as "Foo Bar" is none.
  "foo bar": { name: "Claude Code", userAgent: "claude-code/1.0.0" },
};

/** `name` in the case of `like`: all upper, all lower, as written, or like's pattern of cases letter by letter. */
function recase(name: string, like: string): string {
  if (like === like.toUpperCase()) return name.toUpperCase();
  if (like === like.toLowerCase()) return name.toLowerCase();
  if (/^[A-Z][a-z]+(?:[A-Z][a-z]+)*$/.test(like)) return name;
  return [...name].map((char, i) => (/[A-Z]/.test(like[i % like.length] as string) ? char.toUpperCase() : char.toLowerCase())).join("");
}

/** The fact's file with the reference's names in its User-agent lines made the real agents' (a whole `Foo Bar` value when the fact's agent is that name). */
function realFile(fact: ReferenceVerdict): string {
  return fact.file.replace(/^([\uFEFF\uFFFD]?[ \t]*user-agent[ \t]*:?[ \t]*)([^#\r\n]*)/gim, (_line, head: string, value: string) => {
    if (fact.agent.toLowerCase() === "foo bar" && value.trim().toLowerCase() === "foo bar") return head + recase("Claude Code", value.trim()) + value.slice(value.trimEnd().length);
    return head + value.replace(/^[A-Za-z_-]+/, (token) => (AGENTS[token.toLowerCase()] ? recase(AGENTS[token.toLowerCase()]!.name, token) : token));
  });
}

const fetchedUrl = (url: string) => (url === "" ? "/" : url);
/** The path and query a URL fetches. */
const pathOf = (url: string) => url.replace(/^https?:\/\/[^/?#]*/i, "").split("#")[0] || "/";
/** The facts a hit can carry: a named agent and a URL a hit's path may be. */
const SENT = VERDICTS.filter((fact) => fact.agent !== "" && fetchedUrl(fact.url).length <= MAX_PATH_LENGTH);

let t: TestServer;
let project: { projectId: string; key: string };
/** Per fact of SENT: its version and the real agent. */
const sent: { fact: ReferenceVerdict; versionId: number; agent: string; file: string; url: string }[] = [];

beforeAll(async () => {
  t = await startTestServer();
  project = await t.newProject("acme/robots-reference");
  const start = (epochDay(Date.now()) - 1) * DAY_MS;
  const hits: { timestamp: string; path: string; ip: string; userAgent: string }[] = [];
  let minute = 0;
  let previous: string | null = null;
  const addVersion = async (body: string) => {
    const answer = await t.call("POST", `/admin/projects/${project.projectId}/robots/versions`, { token: ADMIN_TOKEN, body: { body, effectiveAt: new Date(start + minute++ * 60_000).toISOString() } });
    expect(answer.status).toBe(201);
    previous = body;
    return answer.body.id as number;
  };
  for (const [n, fact] of SENT.entries()) {
    const file = realFile(fact);
    // A version per fact, so each view's verdict is its own: the same file twice in a row is no new version.
    if (file === previous) await addVersion("# the next fact's file follows\n");
    const at = start + minute * 60_000 + 30_000;
    const versionId = await addVersion(file);
    const agent = AGENTS[fact.agent.toLowerCase()]!;
    const ip = agent.list ? publishedAddress(agent.list, n).ip : `198.51.100.${(n % 250) + 1}`;
    hits.push({ timestamp: new Date(at).toISOString(), path: fetchedUrl(fact.url), ip, userAgent: agent.userAgent });
    sent.push({ fact, versionId, agent: agent.name, file, url: fetchedUrl(fact.url) });
  }
  const answer = await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits } });
  expect(answer.body).toMatchObject({ accepted: hits.length, rejected: [] });
}, 300_000);
afterAll(() => t?.close());

const csv = async (report: string) => {
  const answer = await t.call("GET", `/v1/analytics/${project.projectId}/${report}?output=csv`, { token: project.key });
  expect(answer.status).toBe(200);
  const [header, ...rows] = parseCsv(answer.body as string);
  return rows.map((row) => Object.fromEntries((header as string[]).map((name, i) => [name, row[i] as string])));
};

describe("the reference parser's suite through ingest, the rollup and the reports", () => {
  it("sends every fact a hit can carry; the others are held by the unit suite", () => {
    const held = VERDICTS.filter((fact) => !SENT.includes(fact));
    // No view has an empty agent, and a hit's path is at most 2,048 characters (the reference's 16 KiB lines).
    expect(held.map((fact) => (fact.agent === "" ? "no agent" : "URL too long"))).toEqual(["no agent", "no agent", "URL too long", "URL too long", "URL too long"]);
    expect(SENT.length).toBe(158);
  });

  it("the real agents' files decide as the reference's do (RFC brute force)", () => {
    for (const { fact, agent, file, url } of sent) {
      expect({ test: fact.test, agent, url, allowed: rfcJudge(file, agent, pathOf(url)).allowed }).toEqual({ test: fact.test, agent, url, allowed: fact.allowed });
    }
  });

  it("judges each view on the URL it fetched: the verdict of every fact, per version", async () => {
    const rows = await csv("robots/changes");
    const byVersion = new Map(rows.map((row) => [`${row.versionId} ${row.agent}`, row]));
    const verdicts = sent.map(({ fact, versionId, agent }) => {
      const row = byVersion.get(`${versionId} ${agent}`);
      return { test: fact.test, agent, url: fact.url, allowed: row?.allowed === "1" && row.disallowed === "0" ? true : row?.disallowed === "1" && row.allowed === "0" ? false : row };
    });
    expect(verdicts).toEqual(sent.map(({ fact, agent }) => ({ test: fact.test, agent, url: fact.url, allowed: fact.allowed })));
  });

  it("keeps each disallowed view under its page, with the rule as written and its line", async () => {
    const rows = await csv("robots/disallowed");
    const shown = rows.map((row) => ({ agent: row.agent, versionId: Number(row.versionId), path: row.path, line: Number(row.line), rule: row.rule, views: Number(row.views) })).sort((a, b) => a.versionId - b.versionId);
    const expected = sent
      .filter(({ fact }) => !fact.allowed)
      .map(({ agent, versionId, file, url }) => {
        const { line } = rfcJudge(file, agent, pathOf(url));
        return { agent, versionId, path: normalizePagePath(url), line, rule: file.split(/\r\n|\r|\n/)[(line as number) - 1]?.replace(/#.*$/, "").trim(), views: 1 };
      });
    expect(shown).toEqual(expected);
  });
});
