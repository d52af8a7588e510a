import type { Command, Noun } from "../command-context.js";
import { agents } from "./agents.js";
import { automations } from "./automations.js";
import { analytics } from "./analytics.js";
import { jobs } from "./jobs.js";
import { keys } from "./keys.js";
import { projects } from "./projects.js";
import { store } from "./store.js";
import { webhooks } from "./webhooks.js";

/** The help groups nouns by the credential they need; a noun missing here can be neither run nor seen. */
const GROUPS: { heading: string; nouns: Noun[] }[] = [
  { heading: "Operator (token: --token or INKWELL_ADMIN_TOKEN):", nouns: [projects, keys, webhooks, automations, agents] },
  { heading: "Agent jobs (key: --key or INKWELL_API_KEY; project: --project or INKWELL_PROJECT):", nouns: [jobs] },
  { heading: "Analytics (key and project as above; --from and --through are included, --to is excluded like the API's dateTo):", nouns: [analytics] },
  { heading: "Store (on the service's machine; --data-dir or DATA_DIR, default ./data; backup takes the operator token):", nouns: [store] },
];

export const NOUNS: readonly Noun[] = GROUPS.flatMap((group) => group.nouns);

/** The commands part of `inkwell --help`: each group's heading, then its commands' usage lines. */
export const COMMANDS_USAGE = GROUPS.map(({ heading, nouns }) =>
  [heading, ...nouns.flatMap((noun) => Object.values(noun.commands).map((command) => `  ${command.usage}`))].join("\n"),
).join("\n\n");

/** `hasOwn`, so that `inkwell jobs constructor` is an unknown command, not Object's. */
export function findCommand(noun: string, action: string | undefined): Command | undefined {
  const commands = NOUNS.find((candidate) => candidate.name === noun)?.commands;
  return commands && action !== undefined && Object.hasOwn(commands, action) ? commands[action] : undefined;
}
