import { defineConfig } from "vitest/config";
import type { TestProjectInlineConfiguration } from "vitest/config";
import { slowTestTimeout } from "./test/helpers/eventually.js";
import SlowestFirst from "./test/helpers/slowest-first.js";
import { FULL_TIER as full } from "./test/helpers/tier.js";

/**
 * Two tiers (test/README.md). `npm test` is the quick one: unit tests, the Action's scenarios
 * and the integration suites on PGlite (and PostgreSQL when TEST_DATABASE_URL is set), at volumes
 * that prove behaviour. `npm run test:all` sets INKWELL_TEST_TIER=full: the same files at soak
 * volumes (test/helpers/tier.ts), plus the files below that only the full tier runs.
 */
const postgres = Boolean(process.env.TEST_DATABASE_URL);
/**
 * Tests wait on conditions with their own generous deadlines (test/helpers/eventually.ts) and say
 * what they waited for; these outer limits only stop a test that hangs, so they sit above those
 * deadlines and a loaded machine never trips them (a unit test over a real store took 31 s
 * beside two CPU-bound processes).
 */
const timeouts = { testTimeout: slowTestTimeout(), hookTimeout: slowTestTimeout() };

/** Real Chromium against the dashboard and the beacon: one store is enough (the pages' queries run on both in the HTTP suites). */
const BROWSER = ["test/integration/beacon-browser.test.ts", "test/integration/dashboard-automations.test.ts", "test/integration/dashboard-browser.test.ts", "test/integration/dashboard-webhooks.test.ts", "test/integration/mcp-oauth-browser.test.ts"];
/** Several server processes over one PostgreSQL: they need it, and they want the machine to themselves. */
const CLUSTER = ["test/integration/multi-instance.test.ts", "test/integration/schedules-multi-instance.test.ts", "test/integration/mcp-multi-instance.test.ts"];
/** The committed dist/ run as GitHub's runner runs it, and as gitlab-ci-local runs the GitLab component (full tier, and the other Node's leg). */
const BUNDLE = ["test/scenarios/action/automations.test.ts", "test/scenarios/action/bundle.test.ts", "test/scenarios/action/gitlab-ci-local.test.ts"];
/** The agent on real public docs sites from bench/real-docs (a 1,116-page site's gate per round): full tier. */
/**
 * CI's second leg (INKWELL_TEST_LEG=node) gives the Node version production does not use only what can
 * differ between versions: the committed bundle, the server's start and stop as a process on the WASM
 * store (PGlite), and the CLI as a process. The rest is the same JavaScript on the same V8 features,
 * and the first leg runs it at soak volumes.
 */
const NODE_VERSION = ["test/integration/npm-start.test.ts", "test/integration/server-process.test.ts", "test/integration/cli.test.ts"];
const REAL_SITES = ["test/scenarios/action/real-docs-link-checker.test.ts", "test/scenarios/action/real-docs-every-site.test.ts"];

const project = (name: string, include: string[], extra: { exclude?: string[]; store?: "pglite" | "postgres"; groupOrder?: number; maxWorkers?: number; isolate?: boolean; setupFiles?: string[] } = {}): TestProjectInlineConfiguration => ({
  test: {
    name,
    include,
    ...(extra.isolate === false ? { isolate: false } : {}),
    ...(extra.setupFiles ? { setupFiles: extra.setupFiles } : {}),
    ...(extra.exclude ? { exclude: extra.exclude } : {}),
    ...(extra.store ? { env: { INKWELL_TEST_STORE: extra.store } } : {}),
    ...(extra.maxWorkers ? { maxWorkers: extra.maxWorkers } : {}),
    ...(extra.groupOrder ? { sequence: { groupOrder: extra.groupOrder } } : {}),
    ...timeouts,
  },
});

/**
 * A file that shares its worker's module cache with the files before it (isolate: false) skips
 * importing the service again: a third of an integration file's time was imports. Each starts its
 * own server and store, and this setup file loads nock in every one of them and cleans it after
 * each, so every shared file sees the same HTTP edge whatever ran before it in its worker.
 */
const SHARED_WORKER_CLEANUP = "test/helpers/shared-worker-cleanup.ts";
/**
 * What a client sees on the socket itself (keep-alive headers, a stream's backpressure): nock,
 * loaded in shared workers, sits between a client and the socket, so these files get a worker of their own.
 */
const OWN_WORKER = ["test/integration/robustness.test.ts", "test/integration/analytics-csv.test.ts"];

const stores: ("pglite" | "postgres")[] = postgres ? ["pglite", "postgres"] : ["pglite"];

/** The tier's projects: unit, scenarios and the integration suite per store, and what the full tier adds. */
const tierProjects = [
  // Unit files share a worker's module cache (half the project's time was imports); they start no servers and leave no state behind.
  project("unit", ["test/unit/**/*.test.ts"], { isolate: false }),
  project("scenarios", ["test/scenarios/**/*.test.ts"], { exclude: [...BUNDLE, ...REAL_SITES], isolate: false, setupFiles: [SHARED_WORKER_CLEANUP] }),
  ...(full ? [project("real-sites", REAL_SITES)] : []),
  ...(full ? [project("bundle", BUNDLE)] : []),
  ...stores.flatMap((store) => [
    project(store, ["test/integration/**/*.test.ts"], { exclude: [...BROWSER, ...CLUSTER, ...OWN_WORKER], store, isolate: false, setupFiles: [SHARED_WORKER_CLEANUP] }),
    project(`${store}-own-worker`, OWN_WORKER, { store }),
  ]),
  ...(full ? [project("browser", BROWSER, { store: "pglite" })] : []),
  ...(full && postgres ? [project("cluster", CLUSTER, { store: "postgres", groupOrder: 1, maxWorkers: 1 })] : []),
];

export default defineConfig({
  test: {
    globalSetup: ["test/helpers/global-setup.ts"],
    // Two cores here: a file per core. Files that must not share the machine are in the last group, one at a time.
    maxWorkers: 2,
    // Within each project, the files test/README.md budgets as slowest start first.
    sequence: { sequencer: SlowestFirst },
    projects: process.env.INKWELL_TEST_LEG === "node" ? [project("bundle", BUNDLE), project("node-version", NODE_VERSION, { store: "pglite" })] : tierProjects,
  },
});
