import { COMMANDS_HELP } from "./command-usage.js";

export const COMMAND_REFERENCE = "cli-reference";

/** The manual's list of commands (docs/cli.md): the help's own, so the two say the same. */
export function renderCommandReference(): string {
  return [
    "[//]: # (Generated from src/cli/commands/command-usage.ts by `npm run docs:generate`; edit the usage lines there, not this list.)",
    "",
    "```text",
    COMMANDS_HELP,
    "```",
  ].join("\n");
}
