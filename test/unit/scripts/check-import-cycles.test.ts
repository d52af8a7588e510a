import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without type declarations
import { checkImports, cyclePath, importCycles, importGraph, layerFaults, readLayers } from "../../../scripts/check-import-cycles.mjs";

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

  describe("the layers of docs/architecture.md", () => {
    const LAYERS = `# Architecture\n\n## Layers\n\nLowest first:\n\n1. \`src/store/\`: rows.\n2. \`src/domain/\`, \`src/rules.ts\`\n3. \`src/http/\`: the \`edge\`.\n\n## Request paths\n\n1. \`src/not-a-layer/\`\n`;

    it("reads each numbered item's leading paths, lowest first, and stops at the next section", () => {
      expect(readLayers(LAYERS)).toEqual([["src/store/"], ["src/domain/", "src/rules.ts"], ["src/http/"]]);
      expect(() => readLayers("# Architecture\n")).toThrow(/no "## Layers" section/);
    });

    it("finds an import up the list, a type-only one included, and a module no layer holds", () => {
      const root = tree({
        "src/store/rows.ts": `import type { Rule } from "../rules.js";\nexport type Row = Rule[];\n`,
        "src/rules.ts": `export type Rule = string;\n`,
        "src/domain/jobs.ts": `import type { Row } from "../store/rows.js";\nimport { edge } from "../http/edge.js";\nexport const jobs: Row = [edge];\n`,
        "src/http/edge.ts": `export const edge = "x";\n`,
        "src/http/routes.ts": `import { jobs } from "../domain/jobs.js";\nexport const routes = jobs;\n`,
        "src/stray.ts": `export const stray = 1;\n`,
      });
      const rel = (file: string) => path.relative(root, file);
      const { upward, unplaced } = layerFaults(importGraph(path.join(root, "src")), readLayers(LAYERS), root);
      expect(upward.map(({ file, target, from, to }: { file: string; target: string; from: number; to: number }) => [rel(file), rel(target), from, to]).sort()).toEqual([
        ["src/domain/jobs.ts", "src/http/edge.ts", 1, 2],
        ["src/store/rows.ts", "src/rules.ts", 0, 1],
      ]);
      expect(unplaced.map(rel)).toEqual(["src/stray.ts"]);
    });

    it("finds an import between the peer folders a `*` entry stands for, and none into their parent or from a module above", () => {
      const layers = `## Layers\n\n1. \`src/forges/\`: shared.\n2. \`src/forges/*/\`: each forge.\n3. \`src/forges/registry.ts\`\n4. \`src/runner/\`, \`src/runner/{a,b}/\`\n`;
      const root = tree({
        "src/forges/forge.ts": `export type Forge = string;\n`,
        "src/forges/a/forge.ts": `import type { Forge } from "../forge.js";\nimport { b } from "../b/api.js";\nexport const a: Forge = b;\n`,
        "src/forges/b/api.ts": `export const b = "b";\n`,
        "src/forges/b/deep/notes.ts": `import { b } from "../api.js";\nexport const notes = b;\n`,
        "src/forges/registry.ts": `import { a } from "./a/forge.js";\nimport { b } from "./b/api.js";\nexport const all = [a, b];\n`,
        "src/runner/words.ts": `export const words = "w";\n`,
        "src/runner/a/forge.ts": `import { words } from "../words.js";\nimport { b } from "../b/forge.js";\nimport { tool } from "../tools/tool.js";\nexport const a = words + b + tool;\n`,
        "src/runner/b/forge.ts": `export const b = "b";\n`,
        "src/runner/tools/tool.ts": `import { b } from "../b/forge.js";\nexport const tool = b;\n`,
      });
      const rel = (file: string) => path.relative(root, file);
      const { upward, peers, unplaced } = layerFaults(importGraph(path.join(root, "src")), readLayers(layers), root);
      expect(peers.map(({ file, target }: { file: string; target: string }) => [rel(file), rel(target)]).sort()).toEqual([
        ["src/forges/a/forge.ts", "src/forges/b/api.ts"],
        ["src/runner/a/forge.ts", "src/runner/b/forge.ts"],
      ]);
      expect(upward).toEqual([]);
      expect(unplaced).toEqual([]);
    });

    it("src/ keeps them: no import points up, and every module is in a layer", () => {
      const { upward, peers, unplaced } = layerFaults(importGraph(path.resolve("src")), readLayers(readFileSync("docs/architecture.md", "utf8")), path.resolve("."));
      expect(upward).toEqual([]);
      expect(peers).toEqual([]);
      expect(unplaced).toEqual([]);
    });
  });

  describe("as run by npm run lint", () => {
    // The command in this process (a spawned one loads TypeScript again: seconds each); the process itself once, below.
    const run = (...args: string[]) => {
      const lines: string[] = [];
      const code = checkImports(args, (line: string) => lines.push(line));
      return { code, stderr: lines.map((line) => `${line}\n`).join("") };
    };

    it("exits 1 and prints the route around each cycle, saying how to break it", () => {
      const root = tree({ "x.ts": `import type { Y } from "./y.js";\nexport type X = Y;\n`, "y.ts": `import type { X } from "./x.js";\nexport type Y = X[];\n` });
      const { code, stderr } = run(root);
      expect(code).toBe(1);
      expect(stderr).toMatch(/^1 import cycle in .*type-only imports count: move the shared part into a module both can import/);
      expect(stderr).toMatch(/x\.ts\n\s+→ .*y\.ts\n\s+→ .*x\.ts/);
    });

    it("exits 1 on an upward type-only import, naming both modules and their layers", () => {
      const root = tree({
        "layers.md": "## Layers\n\n1. `src/domain/`\n2. `src/http/`\n",
        "src/domain/jobs.ts": `import type { Reply } from "../http/reply.js";\nexport type Job = Reply;\n`,
        "src/http/reply.ts": `export type Reply = { status: number };\n`,
      });
      const { code, stderr } = run(path.join(root, "src"), "--layers", path.join(root, "layers.md"));
      expect(code).toBe(1);
      expect(stderr).toMatch(/^1 import up the layers of .*layers\.md, "Layers" \(type-only imports count/);
      expect(stderr).toMatch(/src\/domain\/jobs\.ts \(layer 1\) → .*src\/http\/reply\.ts \(layer 2\)/);
      // The same tree with the layers the other way round is accepted.
      writeFileSync(path.join(root, "layers.md"), "## Layers\n\n1. `src/http/`\n2. `src/domain/`\n");
      expect(run(path.join(root, "src"), "--layers", path.join(root, "layers.md"))).toEqual({ code: 0, stderr: "" });
    });

    it("checks src/ against docs/architecture.md when run without arguments, as lint runs it: the process exits 0 and prints nothing", () => {
      expect(execFileSync(process.execPath, ["scripts/check-import-cycles.mjs"], { encoding: "utf8", stdio: "pipe" })).toBe("");
    });

    it("exits 0 on a tree without cycles, and 2 on a directory that is not there", () => {
      expect(run(tree({ "a.ts": `export const a = 1;\n` }))).toEqual({ code: 0, stderr: "" });
      const missing = run(path.join(tmpdir(), "inkwell-no-such-dir-for-cycles"));
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/is not a directory/);
    });
  });
});
