import { afterEach, describe, expect, it, vi } from "vitest";

interface Project {
  test: { name: string; include: string[]; exclude?: string[]; env?: Record<string, string>; maxWorkers?: number; isolate?: boolean; setupFiles?: string[]; sequence?: { groupOrder?: number } };
}

/** The projects vitest.config.ts defines under an environment (it reads it when it loads). */
async function projects(env: Record<string, string | undefined>): Promise<Map<string, Project["test"]>> {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const config = (await import("../../vitest.config.js")).default as { test: { projects: Project[] } };
  return new Map(config.test.projects.map((p) => [p.test.name, p.test]));
}

afterEach(() => {
  vi.unstubAllEnvs();
});

const BROWSER_FILE = "test/integration/dashboard-browser.test.ts";
const CLUSTER_FILE = "test/integration/multi-instance.test.ts";
const BUNDLE_FILE = "test/scenarios/action/bundle.test.ts";
const SOCKET_FILE = "test/integration/robustness.test.ts";

describe("the suite's tiers (vitest.config.ts)", () => {
  it("quick: unit, scenarios and the integration suite per store, without Chromium, clusters or the committed bundle", async () => {
    const quick = await projects({ INKWELL_TEST_TIER: undefined, INKWELL_TEST_LEG: undefined, TEST_DATABASE_URL: "postgres://127.0.0.1/test" });
    expect([...quick.keys()]).toEqual(["unit", "scenarios", "pglite", "pglite-own-worker", "postgres", "postgres-own-worker"]);
    for (const store of ["pglite", "postgres"]) {
      expect(quick.get(store)?.env).toEqual({ INKWELL_TEST_STORE: store });
      expect(quick.get(store)?.exclude).toEqual(expect.arrayContaining([BROWSER_FILE, CLUSTER_FILE, SOCKET_FILE]));
      // What a client sees on the socket is tested without nock in between: a worker of its own, on each store.
      expect(quick.get(`${store}-own-worker`)).toMatchObject({ include: expect.arrayContaining([SOCKET_FILE]), env: { INKWELL_TEST_STORE: store } });
      expect(quick.get(`${store}-own-worker`)?.isolate).toBeUndefined();
    }
    expect(quick.get("scenarios")?.exclude).toContain(BUNDLE_FILE);
    // The quick tier's files share their worker's modules (imports were a third of an integration file's time), and nock is cleaned after each.
    const shared = [...quick].filter(([, p]) => p.isolate === false);
    expect(shared.map(([name]) => name)).toEqual(["unit", "scenarios", "pglite", "postgres"]);
    // Servers' files see nock loaded and cleaned after each; unit files start no server and keep their own edge (a stream's backpressure is tested there).
    for (const [name, p] of shared) expect(p.setupFiles).toEqual(name === "unit" ? undefined : ["test/helpers/shared-worker-cleanup.ts"]);
    expect([...(await projects({ TEST_DATABASE_URL: undefined })).keys()]).toEqual(["unit", "scenarios", "pglite", "pglite-own-worker"]);
  });

  it("full: adds Chromium on PGlite, the clusters on PostgreSQL alone and last, and the bundle", async () => {
    const full = await projects({ INKWELL_TEST_TIER: "full", TEST_DATABASE_URL: "postgres://127.0.0.1/test" });
    expect([...full.keys()]).toEqual(["unit", "scenarios", "real-sites", "bundle", "pglite", "pglite-own-worker", "postgres", "postgres-own-worker", "browser", "cluster"]);
    // The agent on real sites is a soak of its own: only the full tier runs it.
    const realSites = ["test/scenarios/action/real-docs-link-checker.test.ts", "test/scenarios/action/real-docs-every-site.test.ts"];
    expect(full.get("real-sites")?.include).toEqual(realSites);
    expect(full.get("scenarios")?.exclude).toEqual(expect.arrayContaining(realSites));
    expect(full.get("browser")).toMatchObject({ include: expect.arrayContaining([BROWSER_FILE]), env: { INKWELL_TEST_STORE: "pglite" } });
    expect(full.get("cluster")).toMatchObject({ include: expect.arrayContaining([CLUSTER_FILE]), env: { INKWELL_TEST_STORE: "postgres" }, maxWorkers: 1, sequence: { groupOrder: 1 } });
    expect(full.get("bundle")?.include).toContain(BUNDLE_FILE);
    // Without PostgreSQL there is no cluster to run.
    expect([...(await projects({ INKWELL_TEST_TIER: "full", TEST_DATABASE_URL: undefined })).keys()]).toEqual(["unit", "scenarios", "real-sites", "bundle", "pglite", "pglite-own-worker", "browser"]);
  });

  it("the other Node's leg (INKWELL_TEST_LEG=node) runs only what can differ between Node versions: the bundle, the server and the CLI as processes on PGlite", async () => {
    const node = await projects({ INKWELL_TEST_TIER: undefined, INKWELL_TEST_LEG: "node", TEST_DATABASE_URL: "postgres://127.0.0.1/test" });
    expect([...node.keys()]).toEqual(["bundle", "node-version"]);
    expect(node.get("bundle")?.include).toContain(BUNDLE_FILE);
    expect(node.get("node-version")).toMatchObject({ include: ["test/integration/npm-start.test.ts", "test/integration/server-process.test.ts", "test/integration/cli.test.ts"], env: { INKWELL_TEST_STORE: "pglite" } });
  });
});
