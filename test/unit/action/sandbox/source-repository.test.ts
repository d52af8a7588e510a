import { describe, expect, it } from "vitest";
import { SourceRepository, type SourceEntry } from "../../../../src/action/sandbox/source-repository.js";
import { createSourceTools } from "../../../../src/action/agent/source-tools.js";

const SHA = "a".repeat(40);

function reader(files: Record<string, string | Buffer>, truncated = false) {
  const fetched: string[] = [];
  const entries: SourceEntry[] = Object.entries(files).map(([path, content]) => ({ path, sha: `blob:${path}`, size: Buffer.byteLength(content) }));
  return {
    fetched,
    reader: {
      tree: async () => ({ entries, truncated }),
      blob: async (sha: string) => {
        fetched.push(sha);
        const content = files[sha.slice(5)] as string | Buffer;
        return Buffer.isBuffer(content) ? content : Buffer.from(content);
      },
    },
  };
}

const files = {
  "src/cli.ts": "export const flags = ['--verbose', '--dry-run'];\nexport function run() {}\n",
  "src/server.ts": "// listens on PORT\nlisten(process.env.PORT);\n",
  "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
  ".github/workflows/ci.yml": "on: push\n",
  "node_modules/x/index.js": "junk\n",
};

describe("SourceRepository", () => {
  it("lists the commit's files by glob, without .github/ or dependency folders", async () => {
    const source = new SourceRepository("acme/api", SHA, reader(files).reader);
    expect((await source.list()).paths).toEqual(["logo.png", "src/cli.ts", "src/server.ts"]);
    expect((await source.list("src/*.ts")).paths).toEqual(["src/cli.ts", "src/server.ts"]);
  });

  it("reads a file or its lines, refusing escapes, .github, binaries, missing and oversized files", async () => {
    const source = new SourceRepository("acme/api", SHA, reader(files).reader, { maxFileBytes: 80, maxSearchBytes: 1_000, maxSearchFetches: 100 });
    expect(await source.read("src/cli.ts", { startLine: 2, endLine: 2 })).toBe("export function run() {}");
    expect(await source.read("./src//server.ts")).toContain("listen(process.env.PORT)");
    await expect(source.read("../docs/index.mdx")).rejects.toThrow(/outside the repository/);
    await expect(source.read("/etc/passwd")).rejects.toThrow(/relative to the repository root/);
    await expect(source.read(".github/workflows/ci.yml")).rejects.toThrow(/off limits/);
    await expect(source.read("logo.png")).rejects.toThrow(/binary/);
    await expect(source.read("src/missing.ts")).rejects.toThrow(/no such file in acme\/api at aaaaaaaaaaaa/);
    const big = new SourceRepository("acme/api", SHA, reader({ "big.txt": "x".repeat(100) }).reader, { maxFileBytes: 80, maxSearchBytes: 1_000, maxSearchFetches: 100 });
    await expect(big.read("big.txt")).rejects.toThrow(/larger than 80 bytes/);
  });

  it("searches with a regular expression, fetching each blob once, and stops at its byte budget saying where", async () => {
    const { reader: r, fetched } = reader(files);
    const source = new SourceRepository("acme/api", SHA, r);
    expect((await source.search("dry-run|env\\.port")).hits).toEqual(["src/cli.ts:1: export const flags = ['--verbose', '--dry-run'];", "src/server.ts:2: listen(process.env.PORT);"]);
    await source.search("run", { glob: "src/**" });
    expect(fetched.filter((sha) => sha === "blob:src/cli.ts")).toHaveLength(1);
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${String(i).padStart(2, "0")}.txt`, "y".repeat(100)]));
    const capped = new SourceRepository("acme/api", SHA, reader(many).reader, { maxFileBytes: 1_000, maxSearchBytes: 2_000, maxSearchFetches: 100 });
    expect(await capped.search("zzz")).toEqual({ hits: [], stoppedAt: "f16.txt" });
    const { reader: counted, fetched: requests } = reader(many);
    const fewFetches = new SourceRepository("acme/api", SHA, counted, { maxFileBytes: 1_000, maxSearchBytes: 1_000_000, maxSearchFetches: 20 });
    expect(await fewFetches.search("zzz")).toEqual({ hits: [], stoppedAt: "f16.txt" });
    expect(requests).toHaveLength(16);
    await expect(source.search("(")).rejects.toThrow(/Invalid regular expression/);
  });

  it("as tools: read-only names only, and a refusal comes back as the tool's answer", async () => {
    const stats = { calls: 0, failures: 0, totalMs: 0 };
    const tools = createSourceTools(new SourceRepository("acme/api", SHA, reader(files, true).reader), stats);
    expect(Object.keys(tools).sort()).toEqual(["list_source_files", "read_source_file", "search_source"]);
    expect(await tools.list_source_files?.execute({ glob: "*.png" } as never)).toBe("logo.png\n(GitHub listed only part of this large repository: narrow with a glob or read paths you know.)");
    expect(await tools.read_source_file?.execute({ path: "../../etc/passwd" } as never)).toMatch(/^Error: .*outside the repository/);
    expect(stats).toMatchObject({ calls: 2, failures: 1 });
  });
});
