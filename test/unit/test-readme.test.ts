import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// test/README.md, "Where a new test goes": a unit test mirrors the module it tests, or is one of
// the two topical kinds the README names.

const isFile = (file: string) => existsSync(file) && statSync(file).isFile();
const isDir = (dir: string) => existsSync(dir) && statSync(dir).isDirectory();

/** Why `rel` (a unit test's path under test/unit/, without `.test.ts`) is where it is; null when nothing says so. */
function placed(rel: string): string | null {
  if (isFile(`src/${rel}.ts`) || isFile(`src/${rel}/index.ts`)) return "mirrors src/";
  if (rel.startsWith("scripts/") && (isFile(`${rel}.mjs`) || isFile(`${rel}.ts`))) return "mirrors scripts/";
  if (rel.startsWith("helpers/") && isFile(`test/${rel}.ts`)) return "mirrors test/helpers/";
  if (!rel.includes("/")) return "a repository file outside src/";
  const dir = path.dirname(rel);
  if (!dir.includes("/") && isDir(dir) && readdirSync(dir).some((name) => name.startsWith(`${path.basename(rel)}.`))) return "a repository file outside src/";
  const [folder] = path.basename(rel).split("-");
  if (folder && isDir(`src/${dir}/${folder}`)) return "a folder's modules on one topic";
  return null;
}

describe("test/README.md's rule for unit tests", () => {
  it("every unit test mirrors its module or is one of the README's two topical kinds", () => {
    const tests = (readdirSync("test/unit", { recursive: true }) as string[]).filter((name) => name.endsWith(".test.ts")).map((name) => name.replace(/\.test\.ts$/, ""));
    expect(tests.length).toBeGreaterThan(100);
    expect(tests.filter((rel) => placed(rel) === null)).toEqual([]);
  });

  it("tells a stray test apart", () => {
    expect(placed("app/domain/jobs/entrance")).toBe("mirrors src/");
    expect(placed("cli/logs/formats-cdns")).toBe("a folder's modules on one topic");
    expect(placed("examples/inkwell-workflow")).toBe("a repository file outside src/");
    expect(placed("app/mcp/mcp-origins")).toBeNull();
    expect(placed("app/http/csv")).toBeNull();
  });
});
