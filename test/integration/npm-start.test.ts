import { describe, expect, it } from "vitest";
import { slowTestTimeout } from "../helpers/eventually.js";
import { FULL_TIER } from "../helpers/tier.js";
import { processStore, startServerProcess } from "../helpers/process.js";

/** The quick tier proves the signal npm forwards and the one it does not; the full tier adds Ctrl-C's. */
const SIGNALS: NodeJS.Signals[] = FULL_TIER ? ["SIGTERM", "SIGINT", "SIGHUP"] : ["SIGTERM", "SIGHUP"];

describe("`npm start` as a process manager sees it", () => {
  // Each signal's restart is the next signal's `npm start` on the same data directory (a start is seconds).
  it(`${SIGNALS.join(", then ")} to npm's PID each stop the server cleanly, and a restart on the same data directory works at once`, { timeout: slowTestTimeout(SIGNALS.length) }, async () => {
    const store = await processStore();
    try {
      for (const signal of SIGNALS) {
        const server = await startServerProcess(store.env, { via: "npm start" });
        expect((await fetch(`${server.url}/healthz`)).status, signal).toBe(200);
        server.child.kill(signal);
        await server.exited;
        // npm forwards SIGTERM and SIGINT and waits; after SIGHUP the server sees npm gone and stops itself.
        for (let waited = 0; !server.output().includes('"msg":"stopped"') && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
        expect(server.output(), signal).toContain('"msg":"stopped"');
        await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
      }

      const again = await startServerProcess(store.env);
      expect(await (await fetch(`${again.url}/healthz`)).json()).toMatchObject({ status: "ok" });
      again.child.kill("SIGTERM");
      expect(await again.exited).toBe(0);
    } finally {
      await store.cleanup();
    }
  });
});
