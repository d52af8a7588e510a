import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const README = fileURLToPath(new URL("../README.md", import.meta.url));

/**
 * Each file's budget in seconds from test/README.md's "Where the time goes" table: a row whose
 * first cell names a file and whose last cell is a number.
 */
export function timeBudgets(readme: string): Map<string, number> {
  const budgets = new Map<string, number>();
  for (const line of readme.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const file = /^`(test\/[^`]+\.test\.ts)`$/.exec(cells[1] ?? "")?.[1];
    const seconds = Number(cells.at(-2));
    if (file && cells.at(-2) !== "" && Number.isFinite(seconds)) budgets.set(file, seconds);
  }
  return budgets;
}

/**
 * Vitest's order (groups, then each project's files: failed and longest first from its cache, else
 * larger files first), with the files the README budgets started first: in a clean clone there is
 * no cache, and a long file dispatched last is a tail with one core idle. Projects keep their files
 * together (a worker keeps a project's modules), the project holding the longest budget first.
 */
export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return slowestFirst(await super.sort(files), timeBudgets(readFileSync(README, "utf8")), this.ctx.config.root);
  }
}

/** `specs` in vitest's order, reordered by budget within each group and project (a stable sort: ties keep vitest's order). */
export function slowestFirst(specs: TestSpecification[], budgets: Map<string, number>, root: string): TestSpecification[] {
  const budget = (spec: TestSpecification) => budgets.get(path.relative(root, spec.moduleId).split(path.sep).join("/")) ?? 0;
  const longestOf = new Map<string, number>();
  for (const spec of specs) longestOf.set(spec.project.name, Math.max(longestOf.get(spec.project.name) ?? 0, budget(spec)));
  const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
  const projectRank = (spec: TestSpecification) => longestOf.get(spec.project.name) ?? 0;
  return [...specs].sort(
    (a, b) =>
      group(a) - group(b) ||
      projectRank(b) - projectRank(a) ||
      (a.project.name === b.project.name ? budget(b) - budget(a) : a.project.name < b.project.name ? -1 : 1),
  );
}
