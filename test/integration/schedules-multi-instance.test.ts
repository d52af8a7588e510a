import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installationCreated } from "../fixtures/webhooks.js";
import { Cluster } from "../helpers/cluster.js";
import { eventually } from "../helpers/eventually.js";
import { startFakeGitHubApp } from "../helpers/fake-github-app.js";
import { appEnv, sign } from "../helpers/github.js";
import { processStore, type ProcessStore } from "../helpers/process.js";
import { storeKind } from "../helpers/store.js";

const TOKEN = "schedule-operator-token-0042";
const REPO = "acme/docs";
const REPO_ID = 1296269;
const INSTALLATION = 42;

/**
 * A schedule with three instances scanning for due schedules every second over one PostgreSQL:
 * it fires once, and not again while its job is open.
 */
describe.skipIf(storeKind() !== "postgres")("schedules across instances", () => {
  let store: ProcessStore;
  let cluster: Cluster;
  let github: Awaited<ReturnType<typeof startFakeGitHubApp>>;
  const dispatched: string[] = [];
  const dataDirs: string[] = [];
  let projectId = "";

  beforeAll(async () => {
    store = await processStore();
    github = await startFakeGitHubApp({ endpoints: 3, repository: { fullName: REPO, id: REPO_ID }, onDispatch: (payload) => void dispatched.push(payload.job_id) });
    dataDirs.push(mkdtempSync(path.join(tmpdir(), "inkwell-sched-")), mkdtempSync(path.join(tmpdir(), "inkwell-sched-")));
    cluster = await Cluster.start(
      [0, 1, 2].map((i) => ({
        ...store.env,
        DATA_DIR: i === 0 ? store.dataDir : (dataDirs[i - 1] as string),
        INKWELL_ADMIN_TOKEN: TOKEN,
        ...appEnv({ PUBLIC_URL: "https://inkwell.schedules.test", INKWELL_APP_SLUG: "inkwell-docs" }),
        ...github.env(i),
      })),
    );
    const raw = JSON.stringify(installationCreated(INSTALLATION, [{ full_name: REPO, id: REPO_ID }]));
    await cluster.sendIdempotent("POST", "/api/github/webhooks", { raw, headers: { "X-GitHub-Event": "installation", "X-GitHub-Delivery": "sched-install", "X-Hub-Signature-256": sign(raw) } });
    projectId = (await eventually("the project", async () => (await cluster.call(0, "GET", "/admin/projects", { token: TOKEN })).body.projects?.[0])).id;
  });

  afterAll(async () => {
    const errors = cluster?.errorLines() ?? [];
    if (errors.length > 0) process.stderr.write(`server errors:\n${errors.join("\n")}\n`);
    await cluster?.stop();
    await github?.close();
    await store?.cleanup();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  const automationOf = async (via: number) => (await cluster.call(via, "GET", `/admin/projects/${projectId}/automations`, { token: TOKEN })).body.automations[0];

  it("fires once with three instances running, and not again while its job is open", async () => {
    const created = await cluster.call(0, "POST", `/admin/projects/${projectId}/automations`, { token: TOKEN, body: { kind: "schedule", cron: "0 6 1 1 *", instruction: "Fix broken links and outdated version numbers." } });
    expect(created.status).toBe(201);
    expect(created.body.nextRunAt).toMatch(/-01-01T06:00:00.000Z$/);
    const id = created.body.id;

    expect((await cluster.call(1, "POST", `/admin/projects/${projectId}/automations/${id}/run`, { token: TOKEN })).status).toBe(202);
    const fired = await eventually("the firing", async () => (await automationOf(2))?.lastOutcome?.startsWith("started job") && (await automationOf(2)));
    const jobId = fired.lastOutcome.slice("started job ".length);
    // Every instance scans each second: give them three more scans to fire it twice, if they could.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const automation = (await cluster.call(2, "GET", `/admin/projects/${projectId}/automations/${id}`, { token: TOKEN })).body;
    expect(automation.lastOutcome).toBe(`started job ${jobId}`);
    const byKey = await cluster.call(0, "POST", `/admin/projects/${projectId}/keys`, { token: TOKEN, body: { name: "schedules" } });
    const listed = (await cluster.call(1, "GET", `/v2/agent/${projectId}/jobs?trigger=schedule`, { token: byKey.body.key })).body.jobs;
    expect(listed.map((j: { id: string }) => j.id)).toEqual([jobId]);
    expect(listed[0]).toMatchObject({ status: "active", trigger: { type: "schedule", automationId: id } });
    await eventually("the dispatch", () => dispatched.includes(jobId));
    expect(dispatched.filter((d) => d === jobId)).toHaveLength(1);

    // Due again while that job is open: the firing is recorded as skipped, and no job starts.
    expect((await cluster.call(0, "POST", `/admin/projects/${projectId}/automations/${id}/run`, { token: TOKEN })).status).toBe(202);
    const skipped = await eventually("the skipped firing", async () => (await automationOf(1))?.lastOutcome?.startsWith("skipped") && (await automationOf(1)));
    expect(skipped.lastOutcome).toBe(`skipped: job ${jobId} is still open`);
    expect(skipped.nextRunAt).toMatch(/-01-01T06:00:00.000Z$/);
    expect((await cluster.call(2, "GET", `/v2/agent/${projectId}/jobs?trigger=schedule`, { token: byKey.body.key })).body.jobs).toHaveLength(1);
  });
});
