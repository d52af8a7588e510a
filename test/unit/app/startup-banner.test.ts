import path from "node:path";
import { describe, expect, it } from "vitest";
import { startupBanner } from "../../../src/app/startup-banner.js";

const base = {
  version: "1.2.3",
  url: "http://localhost:3000",
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
    expect(text).toMatch(/Token\s+\.\/data\/admin-token \(the CLI on this machine reads it there\)/);
    expect(text).toMatch(/Store\s+embedded \(PGlite\) in \.\/data/);
    expect(text).toMatch(/GitHub App\s+not configured yet: http:\/\/localhost:3000\/dashboard\/github-app/);
    expect(text).toMatch(/Public URL\s+http:\/\/localhost:3000: GitHub cannot reach it \(PUBLIC_URL is not set\)/);
    expect(text).toContain("Next: npx inkwell projects create your-org/docs");
    expect(text.split("\n").length).toBeLessThanOrEqual(12);
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
});
