import { execFileSync } from "node:child_process";
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

  describe("as run by npm run lint", () => {
    const run = (dir: string) => {
      try {
        return { code: 0, stderr: execFileSync(process.execPath, ["scripts/check-import-cycles.mjs", dir], { encoding: "utf8", stdio: "pipe" }) };
      } catch (error) {
        const failed = error as { status: number; stderr: string };
        return { code: failed.status, stderr: failed.stderr };
      }
    };

    it("exits 1 and prints the route around each cycle, saying how to break it", () => {
      const root = tree({ "x.ts": `import type { Y } from "./y.js";\nexport type X = Y;\n`, "y.ts": `import type { X } from "./x.js";\nexport type Y = X[];\n` });
      const { code, stderr } = run(root);
      expect(code).toBe(1);
      expect(stderr).toMatch(/^1 import cycle in .*type-only imports count: move the shared part into a module both can import/);
      expect(stderr).toMatch(/x\.ts\n\s+→ .*y\.ts\n\s+→ .*x\.ts/);
    });

    it("exits 0 on a tree without cycles, and 2 on a directory that is not there", () => {
      expect(run(tree({ "a.ts": `export const a = 1;\n` }))).toEqual({ code: 0, stderr: "" });
      const missing = run(path.join(tmpdir(), "inkwell-no-such-dir-for-cycles"));
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/is not a directory/);
    });
  });
});
