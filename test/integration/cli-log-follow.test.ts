import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { eventually } from "../helpers/eventually.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { INKWELL_ANALYTICS_BACKFILL_DAYS: "3660" } });
});
afterAll(() => t.close());

/** A page view by visitor n (its own address), or an asset it fetched. */
function line(n: number, page = `/docs/page-${n}`): string {
  const minute = String(n % 60).padStart(2, "0");
  return `198.51.100.${n} - - [12/Mar/2025:10:${minute}:00 +0000] "GET ${page} HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0"\n`;
}
const views = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => line(from + i)).join("");

/** The compiled CLI (`bin/inkwell.js`, as installed), following the log until it gets a signal. */
function follow(log: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(ROOT, "bin/inkwell.js"), "analytics", "import", "--format", "combined", "--follow", "--interval", "0.02", "--state", `${log}.position`, "--json", log], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", INKWELL_URL: t.url, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    async stop(signal: NodeJS.Signals) {
      child.kill(signal);
      const code = await exited;
      return { code, summary: JSON.parse(stdout), stderr };
    },
    kill: () => child.kill("SIGKILL"),
    stderr: () => stderr,
  };
}

async function viewsCounted(projectId: string, key: string): Promise<number> {
  const report = await t.call("GET", `/v1/analytics/${projectId}/views`, { token: key });
  return report.body.totals.total;
}

async function waitForViews(projectId: string, key: string, expected: number, follower: { stderr: () => string }): Promise<void> {
  try {
    await eventually(`${expected} views counted`, async () => (await viewsCounted(projectId, key)) >= expected);
  } catch (error) {
    throw new Error(`${(error as Error).message}: the server counted ${await viewsCounted(projectId, key)}:\n${follower.stderr()}`);
  }
}

describe("inkwell analytics import --follow: a live log, through a rotation and a restart", () => {
  it("counts every line exactly once: nothing lost, nothing doubled", async () => {
    const { projectId, key } = await t.newProject();
    const env = { INKWELL_API_KEY: key, INKWELL_PROJECT: projectId };
    const log = path.join(mkdtempSync(path.join(tmpdir(), "inkwell-follow-e2e-")), "access.log");
    writeFileSync(log, views(1, 3) + line(90, "/assets/app.css"));

    const first = follow(log, env);
    try {
      await waitForViews(projectId, key, 3, first);
      appendFileSync(log, views(4, 5));
      await waitForViews(projectId, key, 5, first);
      // logrotate: rename, the server still writes two lines to the old file, then a new file.
      renameSync(log, `${log}.1`);
      appendFileSync(`${log}.1`, views(6, 7));
      writeFileSync(log, views(8, 9));
      await waitForViews(projectId, key, 9, first);
      appendFileSync(log, views(10, 10));
      await waitForViews(projectId, key, 10, first);
    } catch (error) {
      first.kill();
      throw error;
    }
    const stopped = await first.stop("SIGTERM");
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.summary).toMatchObject({ lines: 11, accepted: 10, alreadyImported: 0, skipped: { "not-a-page-view": 1, malformed: 0 } });
    expect(stopped.stderr).toContain(`${log} was rotated: following the new file`);
    const saved = JSON.parse(readFileSync(`${log}.position`, "utf8"));
    expect(saved.file).toMatchObject({ offset: readFileSync(log).length });

    // Written while nothing follows the log.
    appendFileSync(log, views(11, 12));
    const second = follow(log, env);
    try {
      await waitForViews(projectId, key, 12, second);
      appendFileSync(log, views(13, 13));
      await waitForViews(projectId, key, 13, second);
    } catch (error) {
      second.kill();
      throw error;
    }
    const restopped = await second.stop("SIGINT");
    expect(restopped.code, restopped.stderr).toBe(0);
    expect(restopped.summary).toMatchObject({ lines: 3, accepted: 3, alreadyImported: 0 });

    // Exactly the 13 page views, each once: no line was sent again, and the server counted no duplicate.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await viewsCounted(projectId, key)).toBe(13);
    const visitors = await t.call("GET", `/v1/analytics/${projectId}/visitors?limit=250`, { token: key });
    expect(visitors.body.totals.total).toBe(13);
    const pages = (visitors.body.visitors as { path: string; total: number }[]).filter((row) => row.path.startsWith("/docs/page-"));
    expect(pages.map((row) => [row.path, row.total]).sort()).toEqual(Array.from({ length: 13 }, (_, i) => [`/docs/page-${i + 1}`, 1]).sort());
  });
});
