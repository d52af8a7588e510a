import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { CommandContext } from "../../../../src/cli/command-context.js";
import { COMMAND_USAGE, COMMANDS_HELP, HELP_GROUPS, NOUN_NAMES } from "../../../../src/cli/commands/command-usage.js";
import { findCommand } from "../../../../src/cli/commands/index.js";

const usageLines = (noun: keyof typeof COMMAND_USAGE) => Object.values(COMMAND_USAGE[noun]).map((usage) => `  ${usage}`);

describe("the command registry", () => {
  it("has the ten nouns, in the order the help lists them", () => {
    expect(NOUN_NAMES).toEqual(["projects", "keys", "webhooks", "slack", "automations", "agents", "robots", "jobs", "analytics", "store"]);
    expect(Object.keys(COMMAND_USAGE).sort()).toEqual([...NOUN_NAMES].sort());
  });

  it("builds the help from each noun's usage lines under its group's heading", () => {
    expect(COMMANDS_HELP).toBe(HELP_GROUPS.map(({ heading, nouns }) => [heading, ...nouns.flatMap(usageLines)].join("\n")).join("\n\n"));
  });

  it("documents each command under the words that run it, and each noun's module runs exactly its documented actions", async () => {
    const commands = NOUN_NAMES.flatMap((noun) => Object.keys(COMMAND_USAGE[noun]).map((action) => ({ noun, action })));
    expect(commands).toHaveLength(53);
    for (const { noun, action } of commands) {
      const found = findCommand(noun, action);
      expect(found?.usage.split(/\s+/).slice(0, 2).join(" ")).toBe(`${noun} ${action}`);
      const module = (await import(`../../../../src/cli/commands/${noun}.ts`)) as Record<string, Record<string, unknown>>;
      expect(Object.keys(module[noun] ?? {}).sort(), noun).toEqual(Object.keys(COMMAND_USAGE[noun]).sort());
    }
  });

  it("runs the command of the module it loads", async () => {
    const request = vi.fn(async () => ({ projects: [] }));
    const stdout = vi.fn();
    const ctx = { client: { request }, operator: { kind: "operator", token: "t" }, json: true, io: { stdout } } as unknown as CommandContext;
    await findCommand("projects", "list")?.run(ctx);
    expect(request).toHaveBeenCalledWith("GET", "/admin/projects", ctx.operator);
    expect(stdout).toHaveBeenCalledWith("[]");
  });

  it("finds nothing for an unknown noun or action, a noun alone, or Object's own names", () => {
    expect(findCommand("bogus", "list")).toBeUndefined();
    expect(findCommand("jobs", "bogus")).toBeUndefined();
    expect(findCommand("jobs", undefined)).toBeUndefined();
    expect(findCommand("jobs", "constructor")).toBeUndefined();
    expect(findCommand("jobs", "hasOwnProperty")).toBeUndefined();
    expect(findCommand("constructor", "name")).toBeUndefined();
  });
});

/** What a compiled module loads before it runs: its static imports and theirs (lib/, as `inkwell` runs it); packages by name. */
function staticClosure(entry: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(/(?:^|[\n;])\s*(?:import|export)\s+(?:[^"';]*?\bfrom\s*)?["']([^"']+)["']/g)) {
      if (specifier!.startsWith(".")) visit(path.resolve(path.dirname(file), specifier!));
      else loaded.add(specifier!);
    }
  };
  visit(path.resolve(entry));
  return loaded;
}

describe("what `inkwell` loads before it knows the command", () => {
  it("no command module and no validator: --help and a usage error answer from the usage lines alone", () => {
    const loaded = [...staticClosure("lib/cli/main.js")].map((file) => (path.isAbsolute(file) ? path.relative(path.resolve("lib"), file) : file));
    expect(loaded).toContain("cli/commands/command-usage.js");
    expect(loaded.filter((file) => NOUN_NAMES.some((noun) => file === `cli/commands/${noun}.js`))).toEqual([]);
    expect(loaded.filter((file) => !file.startsWith("cli/") && !file.startsWith("shared/") && !file.startsWith("app/") && !file.startsWith("node:"))).toEqual([]);
  });
});
