#!/usr/bin/env node
// `npm start`: readies a fresh clone (ensure-ready.mjs: the service's dependencies, then lib/), then
// serves from this same process. One process, not a shell running two: the SIGTERM, SIGINT or SIGHUP
// that a process manager or Ctrl-C sends to `npm start` reaches the server, which shuts down
// cleanly: npm forwards it to its script, which `exec` makes this process rather than a shell around
// it (package.json).
import { ensureReady } from "./ensure-ready.mjs";

await ensureReady({ withDev: false });
await import("../lib/app/main.js");

// npm forwards SIGINT and SIGTERM, not SIGHUP. When npm itself is gone (a SIGHUP, a SIGKILL), stop
// as if told to, rather than serve on as an orphan that holds the port and DATA_DIR.
if (process.env.npm_lifecycle_event) {
  const npm = process.ppid;
  setInterval(() => {
    if (process.ppid !== npm) process.kill(process.pid, "SIGTERM");
  }, 500).unref();
}
