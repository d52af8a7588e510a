// How long `inkwell` takes to answer, as a person at a terminal sees it: each command spawned as
// its own process the way the README and the start-up banner tell people to run it (`node
// bin/inkwell.js …` in the checkout: `node` from PATH, not this process's binary), against the
// compiled server on PGlite, beside a bare `node -e 0` on the same machine. Prints medians and how
// far above the bare start each one is.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { cliCommand } from "../src/app/startup-banner.js";
import { PACKAGE_ROOT } from "../src/app/package-root.js";
import { call, setUpStore, startServer, TOKEN } from "./bench-server.js";
import { percentile } from "./percentile.js";

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const store = await setUpStore("pglite");
const server = await startServer(store.env);
try {
  const project = await call(`${server.url}/admin/projects`, "POST", TOKEN, JSON.stringify({ repository: "acme/docs" }));
  const { key } = await call(`${server.url}/admin/projects/${project.id}/keys`, "POST", TOKEN, "{}");
  const env = { PATH: process.env.PATH ?? "", INKWELL_URL: server.url, INKWELL_ADMIN_TOKEN: TOKEN, INKWELL_API_KEY: key, INKWELL_PROJECT: project.id };

  // The documented command, as the banner prints it from the checkout.
  const [node, ...cli] = cliCommand(PACKAGE_ROOT).split(" ") as [string, ...string[]];
  const cases: [label: string, argv: string[], goalAboveNode?: number][] = [
    ["node -e 0 (bare start)", ["-e", "0"]],
    ...([
      ["--help", 250],
      ["projects list", 500],
      ["jobs list", 500],
      ["analytics visitors", 500],
    ] as const).map(([command, goal]): [string, string[], number] => [`${cliCommand(PACKAGE_ROOT)} ${command}`, [...cli, ...command.split(" ")], goal]),
  ];
  const medians = new Map<string, number>();
  console.log(`inkwell's answer time, ${RUNS} runs each (${process.version}), ms:\n`);
  console.log("| command | p50 | p90 | p50 above bare node | goal above bare node |");
  console.log("|---|---|---|---|---|");
  for (const [label, argv, goal] of cases) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await run(node, argv, { env, cwd: PACKAGE_ROOT });
      times.push(performance.now() - started);
    }
    const p50 = percentile(times, 50);
    medians.set(label, p50);
    const above = p50 - (medians.get(cases[0]![0]) ?? p50);
    console.log(`| ${label} | ${p50.toFixed(0)} | ${percentile(times, 90).toFixed(0)} | ${goal ? above.toFixed(0) : ""} | ${goal ? `≤ ${goal}${above <= goal ? "" : " (missed)"}` : ""} |`);
  }
} finally {
  server.child.kill("SIGTERM");
  await new Promise((resolve) => server.child.once("exit", resolve));
  await store.cleanup();
}
