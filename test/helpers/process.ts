import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SLOW_DEADLINE_MS } from "./eventually.js";
import { seedPgliteDataDir } from "./pglite-template.js";
import { openTestStore, storeKind, type TestStore } from "./store.js";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Where a spawned server keeps its data: a PGlite directory, or a PostgreSQL schema. */
export interface ProcessStore {
  env: Record<string, string>;
  dataDir: string;
  cleanup(): Promise<void>;
}

/** A PGlite data directory comes already migrated (a restart's path; seedPgliteDataDir). */
export async function processStore(): Promise<ProcessStore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "inkwell-proc-"));
  if (storeKind() === "pglite") {
    await seedPgliteDataDir(dataDir);
    return { env: { DATA_DIR: dataDir }, dataDir, cleanup: async () => undefined };
  }
  const store: TestStore = await openTestStore();
  await store.db.close();
  return { env: { DATA_DIR: dataDir, DATABASE_URL: store.databaseUrl as string }, dataDir, cleanup: () => store.drop().catch(() => undefined) };
}

/**
 * Starts the compiled server on a free port: `node lib/app/main.js`, what `npm start` ends in, or
 * with `via: "npm start"` the README's command itself (then `child` is npm).
 */
export async function startServerProcess(env: Record<string, string>, options: { via?: "node" | "npm start" } = {}): Promise<ServerProcess> {
  const [command, args] = options.via === "npm start" ? ["npm", ["start", "--silent"]] : [process.execPath, ["lib/app/main.js"]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  let exitSignal: string | null = null;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => {
      exitSignal = signal;
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server that never said it listens must not outlive the test that started it.
      child.kill("SIGKILL");
      reject(new Error(`timed out after ${SLOW_DEADLINE_MS} ms waiting for the server to say it listens:\n${output}`));
    }, SLOW_DEADLINE_MS);
    const check = () => {
      const match = /"url":"(http:\/\/[^"]+)".*Inkwell \S+ is listening at/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited during start (code ${child.exitCode}, signal ${exitSignal}):\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}
