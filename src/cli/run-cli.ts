import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ApiClient } from "./api-client.js";
import type { CliIo, CommandContext } from "./command-context.js";
import { COMMANDS_USAGE, findCommand } from "./commands/index.js";
import { CliError, UsageError } from "./errors.js";
import { parseOptions } from "./options.js";

export type { CliIo } from "./command-context.js";

export const USAGE = `Usage: inkwell <command> [options]

${COMMANDS_USAGE}

Global options:
  --url URL      Inkwell server (INKWELL_URL, default http://localhost:3000)
  --json         print JSON instead of tables
  -h, --help     this help

Exit codes: 0 ok, 1 error, 2 usage error, 3 watched job failed.`;

/** Runs one CLI invocation; returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [group, action, ...rest] = positionals;
  if (values.help || !group) {
    io.stdout(USAGE);
    return values.help ? 0 : 2;
  }
  const baseUrl = values.url ?? io.env.INKWELL_URL ?? "http://localhost:3000";
  try {
    new URL(baseUrl);
    const ctx: CommandContext = {
      io,
      values,
      args: rest,
      json: values.json ?? false,
      client: new ApiClient({ baseUrl, fetch: io.fetch }),
      operator: { kind: "operator", token: values.token ?? io.env.INKWELL_ADMIN_TOKEN ?? localOperatorToken(baseUrl, io.env) },
      projectKey: { kind: "project", key: values.key ?? io.env.INKWELL_API_KEY },
    };
    const command = findCommand(group, action);
    if (!command) throw new UsageError(`Unknown command: ${[group, action].filter(Boolean).join(" ")}`);
    return (await command.run(ctx)) ?? 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`inkwell: ${error.message}${error instanceof UsageError ? `\n\n${USAGE}` : ""}`);
      return error.exitCode;
    }
    if (error instanceof TypeError && /Invalid URL/.test(error.message)) {
      io.stderr(`inkwell: --url is not a valid URL: ${baseUrl}`);
      return 2;
    }
    throw error;
  }
}

/** On the server's own machine the generated operator token can be read from DATA_DIR. */
function localOperatorToken(baseUrl: string, env: NodeJS.ProcessEnv): string | undefined {
  const host = new URL(baseUrl).hostname;
  if (!["localhost", "127.0.0.1", "[::1]"].includes(host)) return undefined;
  const file = path.resolve(env.DATA_DIR ?? "./data", "admin-token");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
}
