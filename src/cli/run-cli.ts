import { ApiClient } from "./api-client.js";
import type { CliIo, CommandContext } from "./command-context.js";
import { COMMAND_USAGE, COMMANDS_HELP, NOUN_NAMES, type NounName } from "./commands/command-usage.js";
import { findCommand } from "./commands/index.js";
import { CliError, UsageError } from "./errors.js";
import { localOperatorToken } from "./local-token.js";
import { parseOptions, withSuggestion } from "./options.js";

export type { CliIo } from "./command-context.js";

export const USAGE = `Usage: inkwell <command> [options]

${COMMANDS_HELP}

Global options:
  --url URL      Inkwell server (INKWELL_URL, default http://localhost:3000)
  --json         print JSON instead of tables
  -h, --help     this help

Exit codes: 0 ok, 1 error, 2 usage error, 3 watched job failed.`;

const HELP_HINT = "Run `inkwell --help` for every command and option.";

function unknownCommand(group: string, action: string | undefined): string {
  if (!Object.hasOwn(COMMAND_USAGE, group)) return `Unknown command: ${group}. Commands start with ${NOUN_NAMES.join(", ")}.`;
  const actions = Object.keys(COMMAND_USAGE[group as NounName]).join(", ");
  return action ? `Unknown command: ${group} ${action}. ${group} takes ${actions}.` : `${group} needs a command: ${actions}.`;
}

/** Runs one CLI invocation; returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (thrown) {
    const error = await withSuggestion(thrown);
    io.stderr(`inkwell: ${error instanceof Error ? error.message : String(error)}\n${HELP_HINT}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [group, action, ...rest] = positionals;
  if (values.help || !group) {
    io.stdout(USAGE);
    return values.help ? 0 : 2;
  }
  const baseUrl = values.url ?? io.env.INKWELL_URL ?? "http://localhost:3000";
  const command = findCommand(group, action);
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
    if (!command) throw new UsageError(unknownCommand(group, action));
    return (await command.run(ctx)) ?? 0;
  } catch (error) {
    if (error instanceof CliError) {
      // A usage error says its one reason and the one line that shows the right form, not the whole help.
      const hint = error instanceof UsageError ? `\n${command ? `Usage: inkwell ${command.usage}` : HELP_HINT}` : "";
      io.stderr(`inkwell: ${error.message}${hint}`);
      return error.exitCode;
    }
    if (error instanceof TypeError && /Invalid URL/.test(error.message)) {
      io.stderr(`inkwell: --url is not a valid URL: ${baseUrl}`);
      return 2;
    }
    throw error;
  }
}
