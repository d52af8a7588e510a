import { Readable } from "node:stream";
import { runCli } from "../../src/cli/run-cli.js";
import { ADMIN_TOKEN, type TestServer } from "./server.js";

/** Runs the CLI in-process against a test server; returns exit code and output. Standard input is text, or raw bytes (gzip). */
export function cliFor(t: TestServer) {
  return async (args: string[], env: Record<string, string> = {}, stdin: string | Buffer = "") => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, {
      stdout: (s) => out.push(s),
      stderr: (s) => err.push(s),
      env: { INKWELL_URL: t.url, INKWELL_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
      fetch: globalThis.fetch,
      readStdin: async () => stdin.toString("utf8"),
      stdinStream: () => Readable.from([stdin]),
      sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 20))),
    });
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  };
}
