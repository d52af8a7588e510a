import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";

// What can be checked of the Dockerfile and compose.yaml without running a container (none runs
// where the tests do): the image starts what `npm start` starts, as a non-root user, with a health
// check on /healthz, carries the files the service reads at run time, and compose waits for a
// healthy PostgreSQL and points DATABASE_URL at it.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  name: string | undefined;
  instructions: Instruction[];
}

/** Dockerfile instructions by stage (continuation lines joined, comments dropped). */
function dockerfileStages(text: string): Stage[] {
  const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/).map((line) => line.trim());
  const stages: Stage[] = [];
  for (const line of lines.filter((l) => l && !l.startsWith("#"))) {
    const [, keyword = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const upper = keyword.toUpperCase();
    if (upper === "FROM") stages.push({ name: /\sAS\s+(\S+)/i.exec(args)?.[1], instructions: [] });
    stages.at(-1)?.instructions.push({ keyword: upper, args });
  }
  return stages;
}

const execForm = (args: string) => JSON.parse(args) as string[];

/** The entry file `npm start` ends by running: the start script's `node <script>`, which imports it last after readying the clone. */
function startEntry(): string {
  const start = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start ?? "";
  const [exec, node, script] = start.trim().split(/\s+/);
  expect([exec, node], `npm start is one node process, not a shell around it: ${start}`).toEqual(["exec", "node"]);
  const imports = [...read(script as string).matchAll(/await import\("([^"]+)"\)/g)].map((match) => match[1] as string);
  return path.posix.join(path.posix.dirname(script as string), imports.at(-1) ?? "");
}

describe("Dockerfile", () => {
  const stages = dockerfileStages(read("Dockerfile"));
  const runtime = stages.at(-1)!;
  const find = (keyword: string) => runtime.instructions.filter((i) => i.keyword === keyword);

  it("builds in one stage and runs from another", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = stages[0]!.instructions.map((i) => i.args).join("\n");
    expect(build).toMatch(/npm ci\b/);
    expect(build).toMatch(/npm run build\b/);
    expect(stages[0]!.instructions[0]!.args).toMatch(/^node:\$\{NODE_VERSION\}-slim|^node:(20|22|24)-slim/);
    expect(runtime.instructions[0]!.args).toMatch(/^node:\$\{NODE_VERSION\}-slim|^node:(20|22|24)-slim/);
  });

  it("runs the entry file npm start runs, without its build step", () => {
    const entry = startEntry();
    expect(entry).toBe("lib/app/main.js");
    const cmd = find("CMD").at(-1);
    const entrypoint = find("ENTRYPOINT").at(-1);
    const argv = [...(entrypoint ? execForm(entrypoint.args) : []), ...(cmd ? execForm(cmd.args) : [])];
    expect(argv).toEqual(["node", entry]);
    expect(runtime.instructions.map((i) => i.args).join("\n")).not.toMatch(/ensure-ready|npm run build|npm start/);
  });

  it("installs production dependencies only and copies the compiled service from the build stage", () => {
    expect(find("RUN").map((i) => i.args).join("\n")).toMatch(/npm ci --omit=dev/);
    const buildName = stages[0]!.name;
    expect(find("COPY").some((i) => i.args.startsWith(`--from=${buildName} `) && /\/lib\/?\s/.test(i.args))).toBe(true);
  });

  it("carries the files the service reads outside lib/ at run time, and they are in the build context", () => {
    const copied = find("COPY")
      .filter((i) => !i.args.startsWith("--from="))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    // package.json (version), app.yml (the App's manifest), the workflow template, vendored lists.
    for (const needed of ["package.json", "app.yml", "examples/", "vendor/"]) expect(copied).toContain(needed);
    const ignored = read(".dockerignore")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    for (const source of copied) {
      expect(existsSync(path.join(root, source)), `${source} exists`).toBe(true);
      expect(ignored.filter((pattern) => source === pattern || source.startsWith(`${pattern}/`)), `${source} is not in .dockerignore`).toEqual([]);
    }
    for (const secret of [".env", ".git", "node_modules", "data"]) expect(ignored).toContain(secret);
  });

  it("runs as a non-root user with DATA_DIR on a /data volume", () => {
    const user = find("USER").at(-1)?.args ?? "root";
    expect(user.split(":")[0]).not.toMatch(/^(root|0)$/);
    expect(find("ENV").map((i) => i.args).join(" ")).toMatch(/\bDATA_DIR=\/data\b/);
    expect(find("VOLUME").map((i) => i.args).join(" ")).toMatch(/"?\/data"?/);
    expect(find("EXPOSE").map((i) => i.args)).toContain("3000");
  });

  it("has a health check asking /healthz with node's fetch (no curl in slim images)", () => {
    const check = find("HEALTHCHECK").at(-1)?.args ?? "";
    const argv = execForm(check.slice(check.indexOf("CMD") + 3).trim());
    expect(argv[0]).toBe("node");
    expect(argv.join(" ")).toMatch(/fetch\(.*\/healthz/);
    expect(check).not.toMatch(/\bcurl\b|\bwget\b/);
  });
});

describe("compose.yaml", () => {
  const compose = parseYaml(read("compose.yaml")) as {
    services: Record<string, { build?: unknown; environment?: Record<string, string>; depends_on?: Record<string, { condition: string }>; healthcheck?: { test: string[] | string }; image?: string; volumes?: string[]; env_file?: unknown }>;
    volumes: Record<string, unknown>;
  };
  const service = Object.values(compose.services).find((s) => s.build !== undefined)!;

  it("builds this image and starts it after PostgreSQL is healthy", () => {
    expect(service).toBeDefined();
    const [dependency, how] = Object.entries(service.depends_on ?? {})[0] ?? [];
    expect(how?.condition).toBe("service_healthy");
    const postgres = compose.services[dependency!]!;
    expect(postgres.image).toMatch(/^postgres:1[67]\b/);
    expect(JSON.stringify(postgres.healthcheck?.test)).toMatch(/pg_isready/);
  });

  it("points DATABASE_URL at that PostgreSQL and keeps both stores on named volumes", () => {
    const dependency = Object.keys(service.depends_on ?? {})[0]!;
    const url = service.environment?.DATABASE_URL ?? "";
    expect(url).toMatch(new RegExp(`^postgres(ql)?://[^@]+@${dependency}:5432/`));
    expect(service.environment?.DATA_DIR).toBe("/data");
    expect(service.env_file).toBe(".env");
    const named = [...(service.volumes ?? []), ...(compose.services[dependency]!.volumes ?? [])].map((v) => v.split(":")[0]);
    for (const volume of named) expect(Object.keys(compose.volumes)).toContain(volume);
    expect(service.volumes?.some((v) => v.endsWith(":/data"))).toBe(true);
  });
});
