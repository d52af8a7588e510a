import { COMMAND_USAGE, type CommandRun, type NounName, type NounRuns } from "./command-usage.js";

/** Each noun's module, loaded only when one of its commands runs: `inkwell jobs get` never loads the store's PGlite code. */
const MODULES: { [Noun in NounName]: () => Promise<NounRuns<Noun>> } = {
  projects: async () => (await import("./projects.js")).projects,
  keys: async () => (await import("./keys.js")).keys,
  webhooks: async () => (await import("./webhooks.js")).webhooks,
  slack: async () => (await import("./slack.js")).slack,
  automations: async () => (await import("./automations.js")).automations,
  agents: async () => (await import("./agents.js")).agents,
  robots: async () => (await import("./robots.js")).robots,
  jobs: async () => (await import("./jobs.js")).jobs,
  analytics: async () => (await import("./analytics.js")).analytics,
  store: async () => (await import("./store.js")).store,
};

export interface FoundCommand {
  usage: string;
  /** Loads the noun's module, then runs the command. */
  run: CommandRun;
}

/** `hasOwn`, so that `inkwell jobs constructor` is an unknown command, not Object's. */
export function findCommand(noun: string, action: string | undefined): FoundCommand | undefined {
  if (!Object.hasOwn(COMMAND_USAGE, noun) || action === undefined) return undefined;
  const usages: Record<string, string> = COMMAND_USAGE[noun as NounName];
  if (!Object.hasOwn(usages, action)) return undefined;
  return {
    usage: usages[action] as string,
    run: async (ctx) => {
      const runs: Record<string, CommandRun> = await MODULES[noun as NounName]();
      return (runs[action] as CommandRun)(ctx);
    },
  };
}
