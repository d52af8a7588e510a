import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without type declarations
import { cyclePath, importCycles, importGraph } from "../../../scripts/check-import-cycles.mjs";

type Graph = Map<string, string[]>;

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "inkwell-cycles-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

const names = (root: string, cycles: string[][]) => cycles.map((cycle) => cycle.map((file) => path.relative(root, file)));

describe("check-import-cycles", () => {
  it("finds a cycle closed only by a type-only import, and one through a re-export and a directory index", () => {
    const root = tree({
      "a.ts": `import type { B } from "./b.js";\nexport type A = { b: B };\n`,
      "b.ts": `import { a } from "./c.js";\nexport type B = number;\nexport const x = a;\n`,
      "c.ts": `import type { A } from "./a.js";\nexport const a = 1 as unknown as A;\n`,
      "d/index.ts": `export { e } from "../e.js";\n`,
      "e.ts": `import "./d/index.js";\nexport const e = 1;\n`,
      "leaf.ts": `import { a } from "./c.js";\nimport { readFileSync } from "node:fs";\nexport const l = [a, readFileSync];\n`,
    });
    const graph: Graph = importGraph(root);
    expect(names(root, importCycles(graph))).toEqual([
      ["a.ts", "b.ts", "c.ts"],
      ["d/index.ts", "e.ts"],
    ]);
    const [knot] = importCycles(graph);
    const route = cyclePath(graph, knot).map((file: string) => path.relative(root, file));
    expect(route).toEqual(["a.ts", "b.ts", "c.ts", "a.ts"]);
  });

  it("accepts layers that point one way", () => {
    const root = tree({
      "http.ts": `import { domain } from "./domain.js";\nimport type { Row } from "./store.js";\nexport const h = [domain] as Row[];\n`,
      "domain.ts": `import { store } from "./store.js";\nexport const domain = store;\n`,
      "store.ts": `export type Row = unknown;\nexport const store = 1;\n`,
    });
    expect(importCycles(importGraph(root))).toEqual([]);
  });

  it("src/ has none", () => {
    expect(names(path.resolve("src"), importCycles(importGraph(path.resolve("src"))))).toEqual([]);
  });
});
