import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { TestSpecification } from "vitest/node";
import { slowestFirst, timeBudgets } from "../../helpers/slowest-first.js";

const spec = (project: string, file: string, groupOrder = 0) => ({ moduleId: `/repo/${file}`, project: { name: project, config: { sequence: { groupOrder } } } }) as unknown as TestSpecification;
const order = (specs: TestSpecification[]) => specs.map((s) => `${s.project.name}:${s.moduleId.slice("/repo/".length)}`);

describe("slowest first", () => {
  it("reads test/README.md's budgets, each naming a test file that exists", () => {
    const budgets = timeBudgets(readFileSync("test/README.md", "utf8"));
    expect(budgets.size).toBeGreaterThanOrEqual(10);
    for (const [file, seconds] of budgets) {
      expect(existsSync(file), file).toBe(true);
      expect(seconds, file).toBeGreaterThan(0);
    }
    expect(timeBudgets("| `test/a.test.ts` | why | 12 |\n| `src/a.ts` | not a test | 3 |\n| `test/b.test.ts` | no number | soon |\n")).toEqual(new Map([["test/a.test.ts", 12]]));
  });

  it("starts budgeted files first within their project, the project with the longest first, keeping vitest's order otherwise and groups apart", () => {
    const budgets = new Map([
      ["test/integration/slow.test.ts", 60],
      ["test/integration/slower.test.ts", 90],
      ["test/scenarios/longest.test.ts", 200],
      ["test/integration/cluster.test.ts", 300],
    ]);
    const vitestOrder = [
      spec("pglite", "test/integration/a.test.ts"),
      spec("pglite", "test/integration/slow.test.ts"),
      spec("pglite", "test/integration/b.test.ts"),
      spec("pglite", "test/integration/slower.test.ts"),
      spec("real-sites", "test/scenarios/longest.test.ts"),
      spec("unit", "test/unit/x.test.ts"),
      spec("unit", "test/unit/y.test.ts"),
      spec("cluster", "test/integration/cluster.test.ts", 1),
    ];
    expect(order(slowestFirst(vitestOrder, budgets, "/repo"))).toEqual([
      "real-sites:test/scenarios/longest.test.ts",
      "pglite:test/integration/slower.test.ts",
      "pglite:test/integration/slow.test.ts",
      "pglite:test/integration/a.test.ts",
      "pglite:test/integration/b.test.ts",
      "unit:test/unit/x.test.ts",
      "unit:test/unit/y.test.ts",
      // A later group stays last, however long.
      "cluster:test/integration/cluster.test.ts",
    ]);
  });
});
