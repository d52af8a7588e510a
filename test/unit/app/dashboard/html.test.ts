import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { codeAndLinks, html, httpUrl, jsonScript, linkified, raw } from "../../../../src/app/dashboard/html.js";
import { safeNext } from "../../../../src/app/dashboard/request.js";
import { workflowFor } from "../../../../src/app/dashboard/setup/page.js";

describe("html template", () => {
  it("escapes every interpolated value unless it is already safe markup", () => {
    const path = `/docs/"><script>alert('x')</script>&`;
    expect(html`<td title="${path}">${path}</td>`.value).toBe(
      "<td title=\"/docs/&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;\">/docs/&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</td>",
    );
    expect(html`<ul>${["<a>", html`<li>${"<b>"}</li>`]}</ul>`.value).toBe("<ul>&lt;a&gt;<li>&lt;b&gt;</li></ul>");
    expect(html`${null}${undefined}${false}${0}${raw("<br>")}`.value).toBe("0<br>");
  });

  it("turns http(s) URLs in a message into links, escaping the rest, and leaves other schemes as text", () => {
    expect(linkified("No GitHub App: set it up at http://localhost:3000/dashboard/github-app.").value).toBe(
      'No GitHub App: set it up at <a href="http://localhost:3000/dashboard/github-app">http://localhost:3000/dashboard/github-app</a>.',
    );
    expect(linkified("<b>x</b> javascript:alert(1) (see https://docs.example.com/a?b=1&c=2)").value).toBe(
      '&lt;b&gt;x&lt;/b&gt; javascript:alert(1) (see <a href="https://docs.example.com/a?b=1&amp;c=2">https://docs.example.com/a?b=1&amp;c=2</a>)',
    );
  });

  it("keeps JSON for a script block from closing the element", () => {
    const block = jsonScript("data", [{ path: "</script><script>alert(1)</script>" }]).value;
    expect(block.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(block.replace(/^<script[^>]*>/, "").replace(/<\/script>$/, ""))).toEqual([{ path: "</script><script>alert(1)</script>" }]);
  });
});

describe("link targets", () => {
  it("are http(s) only", () => {
    expect(httpUrl("https://github.com/acme/docs/pull/7")).toBe("https://github.com/acme/docs/pull/7");
    expect(httpUrl("HTTP://ghe.local/x")).toBe("HTTP://ghe.local/x");
    for (const bad of ["javascript:alert(1)", " javascript:alert(1)", "data:text/html,x", "//evil.example", null, undefined, ""]) expect(httpUrl(bad)).toBeNull();
  });
});

describe("return path after sign-in", () => {
  it("accepts dashboard paths only", () => {
    expect(safeNext("/dashboard/projects/abc/keys?x=1")).toBe("/dashboard/projects/abc/keys?x=1");
    expect(safeNext("/dashboard")).toBe("/dashboard");
    for (const bad of ["https://evil.example", "//evil.example/dashboard", "/dashboardx", "/dashboard\\..\\x", "/admin", "/dashboard/\r\nSet-Cookie: x=1", "/dashboard/中文", "", null, undefined]) {
      expect(safeNext(bad), String(bad)).toBe("/dashboard");
    }
  });
});

describe("setup workflow", () => {
  it("fills in this server's URL, its Action and the project's model", () => {
    const template = "# Copy to .github/workflows/inkwell.yml in your docs repository.\nwith:\n  inkwell-url: https://inkwell.example.com\n  model: anthropic/claude-sonnet-4-5\n";
    expect(workflowFor(template, "https://ink.acme.dev", "openai/gpt-5", "acme/inkwell@v1")).toBe("with:\n  inkwell-url: https://ink.acme.dev\n  model: openai/gpt-5\n");
  });

  it("puts the Action reference in the example's uses:, without the example's note on what to put there", () => {
    const workflow = workflowFor(readFileSync("examples/inkwell-workflow.yml", "utf8"), "https://ink.acme.dev", "openai/gpt-5", "acme/inkwell@3f1c9a0b7d2e4f6a8b0c1d2e3f4a5b6c7d8e9f0a");
    expect(workflow).toContain("      - uses: acme/inkwell@3f1c9a0b7d2e4f6a8b0c1d2e3f4a5b6c7d8e9f0a\n        with:\n          inkwell-url: https://ink.acme.dev\n");
    expect(workflow).not.toMatch(/your-org|Releasing the Action|Copy to/);
    expect(workflow).toContain("# The Action pushes with the App's token");
  });
});

describe("text written for a terminal and a page alike", () => {
  it("shows backticked spans as code and URLs as links, escaping everything", () => {
    expect(codeAndLinks("For a trial, `cloudflared tunnel --url http://localhost:3100 <x>`, then open http://localhost:3100/dashboard/github-app.").value).toBe(
      'For a trial, <code>cloudflared tunnel --url http://localhost:3100 &lt;x&gt;</code>, then open <a href="http://localhost:3100/dashboard/github-app">http://localhost:3100/dashboard/github-app</a>.',
    );
    expect(codeAndLinks("no marks <b>").value).toBe("no marks &lt;b&gt;");
  });
});
