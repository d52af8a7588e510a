import { describe, expect, it } from "vitest";
import { RobotsRules } from "../../../../../src/app/analytics/robots/robots-rules.js";

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
