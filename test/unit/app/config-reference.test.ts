import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { envSchema } from "../../../src/app/config.js";
import { ENV_REFERENCE_END, ENV_REFERENCE_START, envReferenceRows, renderEnvReference, replaceEnvReference } from "../../../src/app/config-reference.js";

const manualPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "docs", "configuration.md");

describe("the environment reference", () => {
  it("docs/configuration.md's section is what the config schema renders (else run `npm run docs:generate`)", () => {
    const page = readFileSync(manualPath, "utf8");
    const expected = replaceEnvReference(page, renderEnvReference(envSchema));
    expect(page === expected, "docs/configuration.md's environment reference disagrees with envSchema in src/app/config.ts: run `npm run docs:generate`").toBe(true);
  });

  it("lists every variable of the schema once, each with a one-line description", () => {
    const rows = envReferenceRows(envSchema);
    expect(rows.map((r) => r.name)).toEqual(Object.keys(envSchema.shape));
    for (const row of rows) {
      expect(row.description.length, row.name).toBeGreaterThan(10);
      expect(row.description, row.name).not.toMatch(/\n/);
    }
  });

  it("is the manual's only list of variables (no hand-kept table beside it)", () => {
    const page = readFileSync(manualPath, "utf8");
    const outside = page.slice(0, page.indexOf(ENV_REFERENCE_START)) + page.slice(page.indexOf(ENV_REFERENCE_END));
    const handRows = outside.split("\n").filter((line) => Object.keys(envSchema.shape).some((name) => line.startsWith(`| \`${name}\``)));
    expect(handRows).toEqual([]);
  });

  it("renders defaults, what unset means, choices and ranges from the schema", () => {
    const schema = z.object({
      A_PORT: z.coerce.number().int().min(0).max(65535).default(3000).meta({ description: "The port." }),
      A_MODE: z.enum(["x", "y"]).default("x").meta({ description: "The mode | with a pipe." }),
      A_URL: z.url().optional().meta({ description: "Where it is.", unset: "nowhere" }),
      A_COUNT: z.coerce.number().int().min(1).default(5).meta({ description: "How many." }),
      A_NAME: z.string().min(1).optional().meta({ description: "A name." }),
    });
    const table = renderEnvReference(schema).split("\n");
    expect(table).toContain("| `A_PORT` | `3000` | integer 0–65535 | The port. |");
    expect(table).toContain("| `A_MODE` | `x` | `x`, `y` | The mode \\| with a pipe. |");
    expect(table).toContain("| `A_URL` | nowhere | URL | Where it is. |");
    expect(table).toContain("| `A_COUNT` | `5` | integer ≥ 1 | How many. |");
    expect(table).toContain("| `A_NAME` | unset | text | A name. |");
  });

  it("refuses a variable without a description", () => {
    expect(() => envReferenceRows(z.object({ BARE: z.string().optional() }))).toThrow(/BARE needs a one-line description/);
  });

  it("replaces only what lies between the markers, and needs both", () => {
    const readme = `# T\n\n${ENV_REFERENCE_START}\nold\n${ENV_REFERENCE_END}\n\nafter\n`;
    expect(replaceEnvReference(readme, "new")).toBe(`# T\n\n${ENV_REFERENCE_START}\nnew\n${ENV_REFERENCE_END}\n\nafter\n`);
    expect(() => replaceEnvReference("# T\n", "new")).toThrow(/env-reference:start/);
    expect(() => replaceEnvReference(`${ENV_REFERENCE_END}\n${ENV_REFERENCE_START}\n`, "new")).toThrow();
    expect(() => replaceEnvReference(`${ENV_REFERENCE_START}\n${ENV_REFERENCE_END}\n${ENV_REFERENCE_END}\n`, "new")).toThrow();
  });
});
