#!/usr/bin/env node
// Fails when modules under a directory import each other in a cycle, type-only imports and
// re-exports included (docs/architecture.md: the layers only point one way). Run by `npm run lint`.
// Usage: node scripts/check-import-cycles.mjs [dir=src]
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const SOURCE = /\.(ts|tsx|mts)$/;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The file a relative specifier names: `./x.js` is `./x.ts` in the sources, a directory its index. */
function resolve(from, specifier, known) {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, "");
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, path.join(base, "index.ts")]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** Every module's local imports, type-only ones and `export … from` included. */
export function importGraph(dir) {
  const files = sourceFiles(dir);
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => resolve(file, specifier, known))
      .filter((target) => target !== undefined && target !== file);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components of more than one module (Tarjan), each sorted, largest first. */
export function importCycles(graph) {
  let index = 0;
  const indices = new Map();
  const lowlinks = new Map();
  const onStack = new Set();
  const stack = [];
  const cycles = [];
  const visit = (node) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node), lowlinks.get(next)));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node), indices.get(next)));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return cycles.sort((a, b) => b.length - a.length);
}

/** One path around a cycle, for the message: from its first module back to it. */
export function cyclePath(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const route = [node];
        for (let at = previous.get(node); at !== null; at = previous.get(at)) route.unshift(at);
        return [...route, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return component;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const dir = path.resolve(root, process.argv[2] ?? "src");
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`check-import-cycles: ${dir} is not a directory`);
    process.exit(2);
  }
  const graph = importGraph(dir);
  const cycles = importCycles(graph);
  if (cycles.length === 0) process.exit(0);
  const name = (file) => path.relative(root, file);
  console.error(`${cycles.length} import cycle${cycles.length === 1 ? "" : "s"} in ${name(dir)} (type-only imports count: move the shared part into a module both can import):`);
  for (const component of cycles) {
    console.error(`\n  ${cyclePath(graph, component).map(name).join("\n    → ")}`);
    if (component.length > 2) console.error(`  (${component.length} modules in this knot: ${component.map(name).join(", ")})`);
  }
  process.exit(1);
}
