import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMAND_REFERENCE, renderCommandReference } from "../../../../src/cli/commands/command-reference.js";
import { COMMAND_USAGE, NOUN_NAMES } from "../../../../src/cli/commands/command-usage.js";
import { replaceMarkedSection } from "../../../../src/shared/marked-section.js";

describe("the manual's command list (docs/cli.md)", () => {
  const page = readFileSync("docs/cli.md", "utf8");

  it("is the help's own list (else run `npm run docs:generate`)", () => {
    expect(page === replaceMarkedSection(page, COMMAND_REFERENCE, renderCommandReference()), "docs/cli.md's command list disagrees with src/cli/commands/command-usage.ts: run `npm run docs:generate`").toBe(true);
  });

  it("names every command with its whole usage line", () => {
    for (const noun of NOUN_NAMES) for (const usage of Object.values(COMMAND_USAGE[noun])) expect(page).toContain(`  ${usage}\n`);
  });

  it("refuses a page without its markers, or with them twice", () => {
    expect(() => replaceMarkedSection("no markers here", COMMAND_REFERENCE, "x")).toThrow(/needs \[\/\/\]: # \(cli-reference:start\)/);
    const twice = "[//]: # (cli-reference:start)\n[//]: # (cli-reference:end)\n";
    expect(() => replaceMarkedSection(twice + twice, COMMAND_REFERENCE, "x")).toThrow(/each once/);
  });
});
