import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliCommand, describeBinding, listeningLine, startupBanner } from "../../../src/app/startup-banner.js";

const base = {
  version: "1.2.3",
  url: "http://localhost:3000",
  bound: { host: "127.0.0.1", port: 3000 },
  store: { kind: "pglite" as const, dataDir: path.resolve("data") },
  adminTokenFile: path.resolve("data", "admin-token"),
  app: { configured: false as const, setupUrl: "http://localhost:3000/dashboard/github-app" },
  publicUrl: { value: "http://localhost:3000", check: { reachable: false as const, reason: "PUBLIC_URL is not set" } },
};

describe("the start-up banner", () => {
  it("says where it runs, how to sign in, where the token and data are, what is missing and the next command", () => {
    const text = startupBanner(base);
    expect(text).toContain("Inkwell 1.2.3 is running at http://localhost:3000");
    expect(text).toMatch(/Dashboard\s+http:\/\/localhost:3000\/dashboard\s+sign in with the operator token/);
    expect(text).toMatch(/MCP\s+http:\/\/localhost:3000\/mcp\s+for AI assistants, with a project's API key/);
    expect(text).toMatch(/Listening\s+127\.0\.0\.1:3000, this machine only \(HOST=0\.0\.0\.0 listens on every interface\)/);
    expect(text).toMatch(/Token\s+\.\/data\/admin-token \(the CLI on this machine reads it there\)/);
    expect(text).toMatch(/Store\s+embedded \(PGlite\) in \.\/data/);
    expect(text).toMatch(/GitHub App\s+not configured yet: http:\/\/localhost:3000\/dashboard\/github-app/);
    expect(text).toMatch(/Public URL\s+http:\/\/localhost:3000: GitHub cannot reach it \(PUBLIC_URL is not set\)/);
    expect(text).toContain("Next: node bin/inkwell.js projects create your-org/docs");
    expect(text.split("\n").length).toBeLessThanOrEqual(13);
  });

  it("is shorter when everything is set up", () => {
    const text = startupBanner({
      ...base,
      store: { kind: "postgres" },
      adminTokenFile: null,
      app: { configured: true },
      publicUrl: { value: "https://inkwell.acme.dev", check: { reachable: true } },
    });
    expect(text).toMatch(/Token\s+INKWELL_ADMIN_TOKEN/);
    expect(text).toMatch(/Store\s+PostgreSQL/);
    expect(text).toMatch(/GitHub App\s+configured/);
    expect(text).not.toContain("Public URL");
  });

  it("says what the bind address means: this machine only, or every interface", () => {
    expect(describeBinding({ host: "0.0.0.0", port: 3000 })).toBe("0.0.0.0:3000, every interface (other machines can connect: put a TLS proxy in front)");
    expect(describeBinding({ host: "::1", port: 8080 })).toBe("::1:8080, this machine only (HOST=0.0.0.0 listens on every interface)");
    expect(describeBinding({ host: "10.0.0.5", port: 3000 })).toBe("10.0.0.5:3000");
  });

  it("puts the banner's essentials in one line of words for logs written to a file", () => {
    expect(listeningLine(base)).toBe(
      `Inkwell 1.2.3 is listening at http://localhost:3000 (127.0.0.1:3000, this machine only (HOST=0.0.0.0 listens on every interface)); dashboard http://localhost:3000/dashboard, the operator token is in ./data/admin-token; next: register the GitHub App at http://localhost:3000/dashboard/github-app, and node bin/inkwell.js projects create your-org/docs`,
    );
    expect(listeningLine({ ...base, adminTokenFile: null, app: { configured: true } })).toMatch(/the operator token is INKWELL_ADMIN_TOKEN; next: node bin\/inkwell\.js projects create your-org\/docs$/);
  });

  it("names this checkout's CLI by its path, never npx (which outside the checkout asks the npm registry)", () => {
    expect(cliCommand(path.resolve("."))).toBe("node bin/inkwell.js");
    expect(cliCommand(path.resolve("docs"))).toBe(`node ${path.resolve("bin", "inkwell.js")}`);
    expect(cliCommand("/")).toBe(`node ${path.resolve("bin", "inkwell.js")}`);
  });
});
