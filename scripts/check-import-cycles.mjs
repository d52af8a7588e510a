#!/usr/bin/env node
// Fails when modules under a directory import each other in a cycle, or when a module imports from
// a layer above its own (docs/architecture.md, "Layers": the list there is what this reads), type-only
// imports and re-exports included. Run by `npm run lint`.
// Usage: node scripts/check-import-cycles.mjs [dir=src] [--layers FILE]
// Without arguments it checks src/ against docs/architecture.md; with a dir, layers only with --layers
// (each path in the list is relative to the folder that holds dir).
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

/**
 * The layers of a "## Layers" section, lowest first: each numbered item starts with its paths in
 * backticks, comma-separated (a folder ends in `/`); what follows them is prose.
 */
export function readLayers(markdown) {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => /^## Layers\s*$/.test(line));
  if (start === -1) throw new Error('no "## Layers" section');
  const layers = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("## ")) break;
    const item = /^\d+\.\s+((?:`[^`]+`(?:,\s*)?)+)/.exec(line);
    if (item) layers.push([...item[1].matchAll(/`([^`]+)`/g)].map((match) => match[1]));
  }
  if (layers.length === 0) throw new Error('the "## Layers" section lists no layers');
  return layers;
}

/**
 * Where `entry` holds `file`: the length of what it matched (the longest entry wins), and for an
 * entry ending in a `*` folder (`src/app/forges/*` + `/`: each folder there) or a list of folders
 * (`src/action/{github,gitlab}/`: those) the folder the file is in, its peer; null when it does not
 * hold the file.
 */
function holding(entry, file, base) {
  const listed = /^(.*)\/\{([^}]+)\}\/$/.exec(entry);
  if (listed || entry.endsWith("/*/")) {
    const parent = path.resolve(base, listed ? listed[1] : entry.slice(0, -3)) + path.sep;
    const peers = listed ? new Set(listed[2].split(",").map((name) => name.trim())) : null;
    const [peer, ...inside] = file.startsWith(parent) ? file.slice(parent.length).split(path.sep) : [];
    return peer && inside.length > 0 && (!peers || peers.has(peer)) ? { length: parent.length + peer.length, peer: parent + peer } : null;
  }
  const full = path.resolve(base, entry);
  const holds = entry.endsWith("/") ? file.startsWith(full + path.sep) : file === full;
  return holds ? { length: full.length, peer: null } : null;
}

/** The layer holding `file` (the longest entry that names it or a folder above it; -1 in none), and its peer folder when that entry has a `*`. */
export function placeOf(file, layers, base) {
  let found = { layer: -1, peer: null };
  let longest = -1;
  layers.forEach((entries, index) => {
    for (const entry of entries) {
      const held = holding(entry, file, base);
      if (held && held.length > longest) {
        found = { layer: index, peer: held.peer };
        longest = held.length;
      }
    }
  });
  return found;
}

/** The index of the layer holding `file`; -1 in none. */
export const layerOf = (file, layers, base) => placeOf(file, layers, base).layer;

/**
 * Imports that point up the list, imports between peers (the folders a `*` entry stands for, such
 * as each forge's under `src/app/forges/*` + `/`: none imports another), and modules that no layer holds.
 */
export function layerFaults(graph, layers, base) {
  const upward = [];
  const unplaced = [];
  const peers = [];
  for (const [file, targets] of graph) {
    const from = placeOf(file, layers, base);
    if (from.layer === -1) {
      unplaced.push(file);
      continue;
    }
    for (const target of targets) {
      const to = placeOf(target, layers, base);
      if (to.layer > from.layer) upward.push({ file, target, from: from.layer, to: to.layer });
      else if (from.peer !== null && to.peer !== null && from.peer !== to.peer) peers.push({ file, target });
    }
  }
  return { upward, peers, unplaced: unplaced.sort() };
}

/**
 * The command: `check-import-cycles [dir] [--layers file]` (no arguments: src/ against
 * docs/architecture.md, as lint runs it). Writes what it finds through `error`, one call a line,
 * and returns the exit code: 0 clean, 1 faults found, 2 a bad argument.
 */
export function checkImports(args, error = console.error) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const flag = args.indexOf("--layers");
  const layersFile = flag === -1 ? (args.length === 0 ? path.join(root, "docs/architecture.md") : undefined) : path.resolve(args[flag + 1] ?? "");
  const positional = args.filter((_, i) => flag === -1 || (i !== flag && i !== flag + 1));
  const dir = path.resolve(root, positional[0] ?? "src");
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    error(`check-import-cycles: ${dir} is not a directory`);
    return 2;
  }
  const name = (file) => path.relative(root, file);
  const graph = importGraph(dir);
  let failed = false;
  const cycles = importCycles(graph);
  if (cycles.length > 0) {
    failed = true;
    error(`${cycles.length} import cycle${cycles.length === 1 ? "" : "s"} in ${name(dir)} (type-only imports count: move the shared part into a module both can import):`);
    for (const component of cycles) {
      error(`\n  ${cyclePath(graph, component).map(name).join("\n    → ")}`);
      if (component.length > 2) error(`  (${component.length} modules in this knot: ${component.map(name).join(", ")})`);
    }
  }
  if (layersFile !== undefined) {
    let layers;
    try {
      layers = readLayers(readFileSync(layersFile, "utf8"));
    } catch (problem) {
      error(`check-import-cycles: ${name(layersFile)}: ${problem.message}`);
      return 2;
    }
    const base = path.dirname(dir);
    const { upward, peers, unplaced } = layerFaults(graph, layers, base);
    const where = `${name(layersFile)}, "Layers"`;
    if (upward.length > 0) {
      failed = true;
      error(`${upward.length} import${upward.length === 1 ? "" : "s"} up the layers of ${where} (type-only imports count: move what both need down, or the importer up):`);
      for (const { file, target, from, to } of upward) error(`  ${name(file)} (layer ${from + 1}) → ${name(target)} (layer ${to + 1})`);
    }
    if (peers.length > 0) {
      failed = true;
      error(`${peers.length} import${peers.length === 1 ? "" : "s"} between peer folders of ${where} (a \`*\` entry: each folder it stands for, such as each forge's, imports none of the others; move what both need into their parent):`);
      for (const { file, target } of peers) error(`  ${name(file)} → ${name(target)}`);
    }
    if (unplaced.length > 0) {
      failed = true;
      error(`${unplaced.length} module${unplaced.length === 1 ? " is" : "s are"} in no layer of ${where}: add the folder or file to the list:`);
      for (const file of unplaced) error(`  ${name(file)}`);
    }
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exit(checkImports(process.argv.slice(2)));
}
