import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { productToken, RobotsRules } from "../../../../../src/app/analytics/robots/robots-rules.js";
import { fetchedPath } from "../../../../../src/app/analytics/ingest/page-path.js";
import { PRODUCT_TOKENS, VERDICTS } from "../../../../fixtures/robotstxt-reference.js";
import { rfcJudge } from "../../../../helpers/robots-rfc.js";
import { volume } from "../../../../helpers/tier.js";

// The examples of RFC 9309 (sections 2.2.2, 2.2.3, 5.1, 5.2) and the cases a judge must get right.
describe("RobotsRules", () => {
  const judge = (body: string, path: string, token: string) => new RobotsRules(body).judge(path, token);

  it("takes the group of the agent's product token over *, case-insensitively, and merges groups naming it twice", () => {
    const body = ["User-Agent: *", "Disallow: *.gif$", "Disallow: /example/", "Allow: /publications/", "", "User-Agent: foobot", "Disallow:/", "Allow:/example/page.html", "Allow:/example/allowed.gif", "", "User-Agent: barbot", "User-Agent: bazbot", "Disallow: /example/page.html", "", "User-Agent: quxbot", "", "user-agent: FooBot", "disallow: /private"].join("\n");
    expect(judge(body, "/example/page.html", "FooBot")).toEqual({ verdict: "allowed", rule: "Allow:/example/page.html", line: 8 });
    expect(judge(body, "/other", "foobot")).toMatchObject({ verdict: "disallowed", rule: "Disallow:/", line: 7 });
    expect(judge(body, "/private", "foobot")).toMatchObject({ verdict: "disallowed", rule: "disallow: /private", line: 18 });
    expect(judge(body, "/example/page.html", "bazbot")).toMatchObject({ verdict: "disallowed", line: 13 });
    expect(judge(body, "/example/page.html", "SomeBot")).toMatchObject({ verdict: "disallowed", rule: "Disallow: /example/", line: 3 });
    expect(judge(body, "/publications/a", "SomeBot")).toMatchObject({ verdict: "allowed", rule: "Allow: /publications/" });
    expect(judge(body, "/a.gif", "SomeBot")).toMatchObject({ verdict: "disallowed", rule: "Disallow: *.gif$" });
    expect(judge(body, "/a.gifs", "SomeBot")).toEqual({ verdict: "allowed", rule: null, line: null });
    // Blank lines do not end a group: quxbot's line runs into FooBot's last group, so * does not apply to it.
    expect(judge(body, "/example/x", "quxbot")).toMatchObject({ verdict: "allowed" });
  });

  it("prefers the longest match, and Allow on a tie", () => {
    const body = "User-agent: *\nAllow: /folder\nDisallow: /folder\nDisallow: /page\nAllow: /page.html\nDisallow: /*.php$\nAllow: /\n";
    expect(judge(body, "/folder/x", "a")).toMatchObject({ verdict: "allowed", line: 2 });
    expect(judge(body, "/page.html", "a")).toMatchObject({ verdict: "allowed", line: 5 });
    expect(judge(body, "/pages", "a")).toMatchObject({ verdict: "disallowed", line: 4 });
    expect(judge(body, "/x/index.php", "a")).toMatchObject({ verdict: "disallowed", line: 6 });
    expect(judge(body, "/x/index.php5", "a")).toMatchObject({ verdict: "allowed", line: 7 });
  });

  it("matches percent-encoded and unencoded paths alike (RFC 9309 2.2.2)", () => {
    const body = "User-agent: *\nDisallow: /foo/bar?baz=https://foo.bar\nDisallow: /%E3%83%84\n";
    expect(judge(body, "/foo/bar?baz=https://foo.bar", "a").verdict).toBe("disallowed");
    expect(judge(body, "/ツ", "a").verdict).toBe("disallowed");
    expect(judge(body, "/%e3%83%84", "a").verdict).toBe("disallowed");
  });

  it("always allows /robots.txt, and allows everything without rules or without a file", () => {
    expect(judge("User-agent: *\nDisallow: /\n", "/robots.txt", "a")).toEqual({ verdict: "allowed", rule: null, line: null });
    expect(judge("", "/anything", "a").verdict).toBe("allowed");
    expect(judge("User-agent: other\nDisallow: /\n", "/anything", "a").verdict).toBe("allowed");
  });

  it("keeps the rule as written without its comment", () => {
    expect(judge("User-agent: *\nDisallow: /tmp/   # scratch space\n", "/tmp/a", "a")).toMatchObject({ rule: "Disallow: /tmp/", line: 2 });
  });

  it("reads Content-Signal lines with the group they stand in", () => {
    const body = "# comment\nContent-Signal: search=yes, ai-train=no\nUser-agent: *\nContent-Signal: search=yes,ai-input=no, ai-train=no, other=yes\nAllow: /\n\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nContent-signal: ai-train=yes\n";
    expect(new RobotsRules(body).contentSignals()).toEqual([
      { userAgents: ["*"], line: 2, search: true, aiTrain: false },
      { userAgents: ["*"], line: 4, search: true, aiInput: false, aiTrain: false },
      { userAgents: ["GPTBot", "ClaudeBot"], line: 9, aiTrain: true },
    ]);
  });
});

/** The path and query a reference URL fetches (its GetPathParamsQuery: an empty URL fetches `/`; page-path.test.ts holds fetchedPath to it for the URLs a hit can send). */
const fetched = (url: string) => (url.length <= 2_048 ? fetchedPath(url) : null) ?? (url.replace(/^https?:\/\/[^/?#]*/i, "").split("#")[0] || "/");

describe("the reference parser's suite (google/robotstxt robots_test.cc), as RFC 9309 decides it", () => {
  it.each(VERDICTS.map((fact, index) => [index, fact.test, fact.agent, fact.url.slice(0, 60), fact] as const))("#%i %s: %s fetching %s", (_i, _test, _agent, _url, fact) => {
    const judgement = new RobotsRules(fact.file).judge(fetched(fact.url), fact.agent);
    expect(judgement.verdict).toBe(fact.allowed ? "allowed" : "disallowed");
    if (fact.line !== undefined) expect(judgement.line).toBe(fact.line);
  });

  it("differs from the reference parser only where the RFC does, each difference saying why", () => {
    const differences = VERDICTS.filter((fact) => fact.reference);
    expect(differences.map((fact) => fact.test)).toEqual([
      "ID_LineSyntax_Line",
      "ID_Encoding",
      "ID_Encoding",
      "ID_Encoding",
      "GoogleOnly_IndexHTMLisDirectory",
      "GoogleOnly_LineTooLong",
      "GoogleOnly_LineTooLong",
    ]);
    for (const fact of differences) {
      expect(fact.reference?.allowed).toBe(!fact.allowed);
      expect(fact.reference?.why).toMatch(/RFC 9309/);
    }
    // robots_test.cc's 145 EXPECTs of IsUserAgentAllowed, and 18 facts from its 12 files whose parse it counts.
    expect(VERDICTS.length).toBe(163);
  });

  it("the RFC brute force gives every verdict of the table, and the same deciding line", () => {
    for (const fact of VERDICTS) {
      const verdict = rfcJudge(fact.file, fact.agent, fetched(fact.url));
      expect({ test: fact.test, agent: fact.agent, url: fact.url.slice(0, 80), allowed: verdict.allowed }).toEqual({ test: fact.test, agent: fact.agent, url: fact.url.slice(0, 80), allowed: fact.allowed });
      expect(new RobotsRules(fact.file).judge(fetched(fact.url), fact.agent).line).toBe(verdict.line);
      if (fact.line !== undefined) expect(verdict.line).toBe(fact.line);
    }
  });

  it.each(PRODUCT_TOKENS)("$agent is a product token to be named by: $valid", ({ agent, valid }) => {
    expect(productToken(agent) !== null).toBe(valid);
  });
});

/** Random files and fetches from the pieces the RFC's grammar and the reference's cases are made of. */
const token = fc.constantFrom("FooBot", "foobot", "FOOBOT", "BarBot", "BarBot/1.0", "Foo Bar", "Foo", "*", "* x", "", "Ai2Bot", "Fo*o");
const pathPiece = fc.constantFrom("/", "a", "b", "ab", ".", "*", "$", "?", "=", "&", "%61", "%2F", "%2f", "%e3%83%84", "ツ", "index.html", "-", "~", "%");
const pattern = fc.array(pathPiece, { maxLength: 5 }).map((pieces) => pieces.join(""));
const line = fc.oneof(
  token.map((value) => `User-agent: ${value}`),
  fc.tuple(fc.constantFrom("Allow", "Disallow", "allow", "DISALLOW"), fc.constantFrom("/", ""), pattern).map(([name, start, rest]) => `${name}: ${start}${rest}`),
  fc.tuple(fc.constantFrom("Allow", "Disallow"), pattern).map(([name, rest]) => `${name} /${rest}`),
  fc.constantFrom("", "# comment", "Sitemap: https://example.com/s.xml", "Content-Signal: ai-train=no", "Unknown: x", "Disallow: /a # note", "  user-agent : BarBot  ", "user agent: FooBot"),
);
const file = fc
  .tuple(fc.constantFrom("", "\uFEFF", "\uFFFD"), fc.array(line, { maxLength: 12 }), fc.constantFrom("\n", "\r\n", "\r"), fc.boolean())
  .map(([bom, lines, end, last]) => bom + lines.join(end) + (last ? end : ""));
const url = fc.array(pathPiece.filter((piece) => piece !== "$" && piece !== "*"), { maxLength: 6 }).map((pieces) => `/${pieces.join("")}`);
const agent = fc.constantFrom("FooBot", "foobot", "BarBot", "Foo", "Foo Bar", "Ai2Bot", "QuxBot", "Claude Code");

describe("RobotsRules against the RFC brute force", () => {
  it("agrees on the verdict and the deciding line for random files, agents and fetches", () => {
    fc.assert(
      fc.property(file, agent, url, (body, name, target) => {
        const judgement = new RobotsRules(body).judge(target, name);
        const expected = rfcJudge(body, name, target);
        expect({ allowed: judgement.verdict === "allowed", line: judgement.line }).toEqual(expected);
      }),
      { numRuns: volume(3_000, 50_000, "ROBOTS_PROPERTY_RUNS") },
    );
  });
});
