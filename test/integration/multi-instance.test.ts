import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { epochDay, windowOf } from "../../src/shared/epoch-days.js";
import { installationCreated, issueComment, pullRequest } from "../fixtures/webhooks.js";
import { Cluster, pool, type Answer } from "../helpers/cluster.js";
import { eventually, SLOW_DEADLINE_MS } from "../helpers/eventually.js";
import { startFakeGitHubApp, type AppCall } from "../helpers/fake-github-app.js";
import { appEnv, sign, startOidcIssuer } from "../helpers/github.js";
import { processStore, type ProcessStore } from "../helpers/process.js";
import { storeKind } from "../helpers/store.js";
import { bruteForceViews, bruteForceVisitors, generateTraffic, wireHit } from "../helpers/traffic.js";

/**
 * Issue 15, item 5: many instances over one PostgreSQL. Three server processes share one database;
 * the test drives all three at once as clients, as the runner and as GitHub, kills one with SIGKILL
 * mid-load, restarts it, and then checks that nothing acknowledged was lost, every run was
 * dispatched once, no job is left stuck, and analytics equal a brute-force count.
 */

const TOKEN = "multi-instance-operator-token-0042";
const PUBLIC_URL = "https://inkwell.multi.test";
const REPO = "acme/docs";
const REPO_ID = 1296269; // test/fixtures/webhooks.ts's repository id
const INSTALLATION = 42; // and its installation
const JOBS = 24;
/** Every third job goes through a PR: webhook opened, a writer's comment (delivered twice), merged. */
const prJob = (k: number) => k % 3 === 0;
/** Some PR jobs fail their first run; the comment brings them back. */
const failsFirst = (k: number) => k % 6 === 3;
const prNumber = (k: number) => 100 + k;
const VICTIM = 1;
const CONCURRENT_JOBS = 12;
const KILL_AFTER_JOBS = 15;
const RESTART_AFTER_JOBS = 18;
const HIT_BATCHES = 12;
const LEASE_SECONDS = 10;

const today = epochDay(Date.now());
const hits = generateTraffic({ seed: 15, people: 600, paths: 25, firstDay: today - 9, days: 5, views: HIT_BATCHES * 250 }).map((hit, i) => ({ ...hit, id: `multi-${i}` }));

describe.skipIf(storeKind() !== "postgres")("many instances over one PostgreSQL", () => {
  let store: ProcessStore;
  let cluster: Cluster;
  let db: pg.Client;
  let github: Awaited<ReturnType<typeof startFakeGitHubApp>>;
  let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
  let projectId: string;
  let key: string;
  const dataDirs: string[] = [];

  /** The runner's side: what each workflow run claimed and reported. */
  const runnerTasks = new Set<Promise<void>>();
  const runnerErrors: string[] = [];
  const claims = new Map<string, number[]>(); // `${job}#${attempt}` → workflow runs that claimed it
  const refusedClaims: string[] = [];
  const reportedPrompts = new Map<string, Set<string>>();
  let workflowRuns = 9_000;

  beforeAll(async () => {
    store = await processStore();
    issuer = await startOidcIssuer();
    github = await startFakeGitHubApp({
      endpoints: 3,
      repository: { fullName: REPO, id: REPO_ID },
      permissions: { alice: "write" },
      onDispatch: (payload) => {
        const task: Promise<void> = playRunner(payload.job_id, payload.run_attempt)
          .catch((error: unknown) => void runnerErrors.push(`${payload.job_id}#${payload.run_attempt}: ${String(error)}`))
          .finally(() => runnerTasks.delete(task));
        runnerTasks.add(task);
      },
    });
    // One PostgreSQL database for all; each process its own data directory, as on separate machines.
    dataDirs.push(mkdtempSync(path.join(tmpdir(), "inkwell-multi-")), mkdtempSync(path.join(tmpdir(), "inkwell-multi-")));
    const envs = [0, 1, 2].map((i) => ({
      ...store.env,
      DATA_DIR: i === 0 ? store.dataDir : (dataDirs[i - 1] as string),
      INKWELL_ADMIN_TOKEN: TOKEN,
      ...appEnv({ PUBLIC_URL, INKWELL_OIDC_ISSUER: issuer.url, INKWELL_APP_SLUG: "inkwell-docs" }),
      // Each process reaches GitHub through its own endpoint of the fake, so every call names its sender.
      ...github.env(i),
      INKWELL_DISPATCH_LEASE_SECONDS: String(LEASE_SECONDS),
      INKWELL_WORKFLOW_CHECK_SECONDS: "2",
      INKWELL_RATE_LIMIT_PER_HOUR: "10000",
      INKWELL_ANALYTICS_ROLLUP_CHUNK: "500",
    }));
    cluster = await Cluster.start(envs);
    db = new pg.Client({ connectionString: store.env.DATABASE_URL });
    await db.connect();

    // The App is installed on the docs repository: the project appears, on every instance.
    await webhook("installation", installationCreated(INSTALLATION, [{ full_name: REPO, id: REPO_ID }]));
    const project = await eventually(
      "the installation's project",
      async () => (await cluster.call(2, "GET", "/admin/projects", { token: TOKEN })).body.projects?.find((p: any) => p.installation?.installed),
    );
    projectId = project.id;
    key = (await cluster.call(1, "POST", `/admin/projects/${projectId}/keys`, { token: TOKEN, body: { name: "multi" } })).body.key;
  });

  afterAll(async () => {
    const errors = cluster?.errorLines() ?? [];
    if (errors.length > 0) process.stderr.write(`server errors during the multi-instance test:\n${errors.join("\n")}\n`);
    await cluster?.stop();
    await db?.end();
    await github?.close();
    await issuer?.close();
    await store?.cleanup();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  async function webhook(event: string, payload: unknown, deliveryId = `multi-${event}-${Math.random().toString(36).slice(2)}`): Promise<void> {
    const raw = JSON.stringify(payload);
    const headers = { "X-GitHub-Event": event, "X-GitHub-Delivery": deliveryId, "X-Hub-Signature-256": sign(raw) };
    // GitHub redelivers what got no answer; the delivery id stays the same.
    const answer = await cluster.sendIdempotent("POST", "/api/github/webhooks", { raw, headers });
    if (answer.status !== 200) throw new Error(`webhook ${event} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }

  const runnerToken = () => issuer.token({ repository: REPO, repository_id: String(REPO_ID) }, { audience: PUBLIC_URL });

  async function runnerCall(endpoint: string, body: unknown): Promise<Answer> {
    return cluster.sendIdempotent("POST", `/v1/runner/${endpoint}`, { token: await runnerToken(), body });
  }

  /** What the Action does for one dispatch: claim, (open the PR), heartbeat, report. */
  async function playRunner(jobId: string, attempt: number): Promise<void> {
    const workflowRunId = ++workflowRuns;
    const claim = await runnerCall("claim", { jobId, runAttempt: attempt, workflowRunId, workflowRunUrl: `https://github.com/${REPO}/actions/runs/${workflowRunId}` });
    if (claim.status === 409) {
      refusedClaims.push(`${jobId}#${attempt}: ${claim.body.error}`);
      return;
    }
    if (claim.status !== 200) throw new Error(`claim answered ${claim.status}: ${JSON.stringify(claim.body)}`);
    const run = `${jobId}#${attempt}`;
    claims.set(run, [...(claims.get(run) ?? []), workflowRunId]);
    const messages: { prompt: string }[] = claim.body.job.messages;
    const k = Number(/^Job (\d+):/.exec(messages[0]?.prompt ?? "")?.[1]);
    const pr = prJob(k) ? { number: prNumber(k), url: `https://github.com/${REPO}/pull/${prNumber(k)}` } : null;
    if (pr && claim.body.job.prNumber === null) await webhook("pull_request", pullRequest("opened", REPO, pr.number, `inkwell/${jobId}`));
    const beat = await runnerCall("heartbeat", { jobId, runAttempt: attempt, progress: `Run ${attempt}: editing pages` });
    if (beat.status !== 200) throw new Error(`heartbeat answered ${beat.status}: ${JSON.stringify(beat.body)}`);
    const report =
      failsFirst(k) && attempt === 1
        ? { jobId, runAttempt: attempt, outcome: "failed", error: "The docs build failed" }
        : { jobId, runAttempt: attempt, outcome: "completed", pr, summary: `Run ${attempt} of job ${k}`, usage: { inputTokens: 100, outputTokens: 20 } };
    const reported = await runnerCall("report", report);
    if (reported.status !== 200) throw new Error(`report answered ${reported.status}: ${JSON.stringify(reported.body)}`);
    const seen = reportedPrompts.get(jobId) ?? new Set<string>();
    for (const m of messages) seen.add(m.prompt);
    reportedPrompts.set(jobId, seen);
  }

  it(
    "three processes share every duty; one killed with SIGKILL mid-load loses nothing, dispatches nothing twice, leaves nothing stuck",
    async () => {
      const started = Date.now();
      const jobIds: string[] = [];
      const createdVia: number[] = [];
      const apiMessages: { jobId: string; prompt: string }[] = [];
      const ambiguousMessages: { jobId: string; prompt: string }[] = [];
      const comments: { jobId: string; commentId: number; prompt: string }[] = [];
      let created = 0;
      /** Each SIGKILL: which GitHub endpoint the dead process used, when it died and when its successor started. */
      const deaths: { endpoint: number; diedAt: number; restartedAt: number }[] = [];

      /**
       * Active jobs with neither a dispatch (queued or sent) of their current run attempt nor a run
       * that claimed it: nothing would move them until the watchdog. Sampled all along the load.
       */
      const stuckSeen: string[] = [];
      const sampleStuck = async () => {
        const { rows } = await db.query<{ id: string }>(
          `SELECT j.id FROM jobs j WHERE j.project_id = $1 AND j.status = 'active'
             AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.dedupe_key = 'dispatch:' || j.id || ':' || j.run_attempt AND t.state IN ('pending', 'done'))
             AND NOT EXISTS (SELECT 1 FROM job_runs r WHERE r.job_id = j.id AND r.run_attempt = j.run_attempt)`,
          [projectId],
        );
        stuckSeen.push(...rows.map((r) => r.id));
      };

      const waitTaken = (jobId: string, prompts: string[]) =>
        eventually(`job ${jobId} to run with ${JSON.stringify(prompts)}`, () => prompts.every((p) => reportedPrompts.get(jobId)?.has(p)));

      /** A follow-up message: not idempotent, so only a refused connection is retried elsewhere. */
      async function message(jobId: string, prompt: string, expected = 200): Promise<void> {
        const answer = await cluster.send("POST", `/v2/agent/${projectId}/job/${jobId}/message`, { token: key, body: { prompt } }, "refused");
        if (answer === "ambiguous") return void ambiguousMessages.push({ jobId, prompt });
        if (answer.status !== expected) throw new Error(`message to ${jobId} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        if (answer.status === 200) apiMessages.push({ jobId, prompt });
      }

      async function scenario(k: number): Promise<void> {
        const prompt = `Job ${k}: document feature ${k}`;
        const answer = await cluster.sendIdempotent("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt }, headers: { "Idempotency-Key": `multi-job-${k}` } });
        if (answer.status !== 201) throw new Error(`job ${k} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        const jobId: string = answer.body.id;
        jobIds[k] = jobId;
        createdVia[k] = answer.via;
        created++;
        if (!prJob(k)) {
          // Queued on the active job (or re-activating it when the first run already ended)…
          await message(jobId, `Job ${k}: also add an example`);
          await waitTaken(jobId, [prompt, ...apiMessages.filter((m) => m.jobId === jobId).map((m) => m.prompt)]);
          // …and on the completed job: a new run on the same branch.
          await message(jobId, `Job ${k}: and a FAQ entry`);
          await waitTaken(jobId, apiMessages.filter((m) => m.jobId === jobId).map((m) => m.prompt));
          return;
        }
        const pr = prNumber(k);
        await waitTaken(jobId, [prompt]);
        await eventually(`job ${k}'s PR link`, async () => (await cluster.sendIdempotent("GET", `/v2/agent/${projectId}/job/${jobId}`, { token: key })).body.prLink === `https://github.com/${REPO}/pull/${pr}`);
        // A writer asks for more on the PR; GitHub delivers the comment twice, to different instances.
        const commentId = 70_000 + k;
        const text = `Job ${k}: please add a diagram`;
        const payload = issueComment(REPO, pr, { id: commentId, body: `/inkwell ${text}`, login: "alice" }, INSTALLATION);
        await Promise.all([webhook("issue_comment", payload), webhook("issue_comment", payload)]);
        comments.push({ jobId, commentId, prompt: text });
        await waitTaken(jobId, [text]);
        await webhook("pull_request", pullRequest("closed", REPO, pr, `inkwell/${jobId}`, { merged: true }));
        await eventually(`job ${k} archived`, async () => (await cluster.sendIdempotent("GET", `/v2/agent/${projectId}/job/${jobId}`, { token: key })).body.status === "archived");
        await message(jobId, `Job ${k}: one more thing`, 409);
      }

      const hitAnswers: { accepted: number; duplicates: number; rejected: unknown[] }[] = [];
      async function sendHits(): Promise<void> {
        for (let b = 0; b < HIT_BATCHES; b++) {
          // Spread over the whole load: batch b goes once b/HIT_BATCHES of the jobs exist.
          await eventually("jobs to be created", () => created >= Math.floor((b * JOBS) / HIT_BATCHES));
          const batch = hits.slice(b * 250, (b + 1) * 250).map((hit) => ({ ...wireHit(hit), id: hit.id }));
          const answer = await cluster.sendIdempotent("POST", `/v1/analytics/${projectId}/hits`, { token: key, body: { hits: batch } });
          if (answer.status !== 202) throw new Error(`hits answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          hitAnswers.push(answer.body);
          await sampleStuck();
        }
      }

      async function killAndRestart(): Promise<{ killedAt: number }> {
        await eventually("the kill point", () => created >= KILL_AFTER_JOBS);
        await cluster.kill(VICTIM);
        const killedAt = Date.now();
        await sampleStuck();
        await eventually("the restart point", () => created >= RESTART_AFTER_JOBS);
        deaths.push({ endpoint: VICTIM, diedAt: killedAt, restartedAt: Date.now() });
        await cluster.restart(VICTIM);
        await sampleStuck();
        return { killedAt };
      }

      const [, , { killedAt }] = await Promise.all([pool(JOBS, CONCURRENT_JOBS, scenario), sendHits(), killAndRestart()]);
      const loadEnded = Date.now();

      // Everything settles by itself: no job active, no task waiting, no run in flight. A merged job's
      // first-week notice is due a week later: it waits, once per merged job whichever instance took the merge.
      const settle = () =>
        eventually(
          "every job to settle and every task to run",
          async () => {
            if (runnerTasks.size > 0) return false;
            const { rows } = await db.query(
              `SELECT (SELECT count(*) FROM jobs WHERE status = 'active')::int AS active, (SELECT count(*) FROM tasks WHERE state = 'pending' AND kind <> 'impact_notice')::int AS pending`,
            );
            return rows[0].active === 0 && rows[0].pending === 0;
          },
          SLOW_DEADLINE_MS,
          100,
        );
      await settle();
      const { rows: notices } = await db.query(
        `SELECT (SELECT count(*) FROM tasks WHERE kind = 'impact_notice')::int AS queued, (SELECT count(*) FROM jobs WHERE merged_at IS NOT NULL)::int AS merged`,
      );
      expect(notices[0].merged).toBeGreaterThan(0);
      expect(notices[0].queued).toBe(notices[0].merged);
      const settled = Date.now();

      // Quiet: follow-ups through one instance only, which takes their dispatches and dies while GitHub
      // is slow to answer, and nothing else arrives. The others must take the work up as soon as the
      // dead one's lease ends, not whenever a timer happens to fire.
      const QUIET = 2;
      github.holdDispatchesFrom(QUIET);
      const quietJobs = jobIds.filter((_, k) => !prJob(k)).slice(0, 3);
      const { rows: attemptRows } = await db.query<{ id: string; run_attempt: number }>(`SELECT id, run_attempt FROM jobs WHERE id = ANY($1)`, [quietJobs]);
      const nextRuns = attemptRows.map((row) => `${row.id}#${row.run_attempt + 1}`);
      const dispatchedAt = (run: string) => github.calls.find((c) => !c.held && c.path === `/repos/${REPO}/dispatches` && `${c.body.client_payload.job_id}#${c.body.client_payload.run_attempt}` === run)?.at;
      for (const jobId of quietJobs) {
        const prompt = `Quiet follow-up for ${jobId}`;
        expect((await cluster.call(QUIET, "POST", `/v2/agent/${projectId}/job/${jobId}/message`, { token: key, body: { prompt } })).status).toBe(200);
        apiMessages.push({ jobId, prompt });
      }
      await eventually("the quiet instance to take a dispatch", () => github.calls.some((c) => c.held && c.endpoint === QUIET));
      await cluster.kill(QUIET);
      const quietKilledAt = Date.now();
      await sampleStuck();
      github.holdDispatchesFrom(null);
      const quietDispatched = await eventually("the quiet follow-ups to be dispatched by the other instances", () => nextRuns.every(dispatchedAt) && nextRuns.map((run) => (dispatchedAt(run) as number) - quietKilledAt));
      // Their claims lapse at most LEASE_SECONDS after the kill; then an instance looks within a second (the
      // rest is GitHub's pace of one write a second per process). Before, they waited for a 30 s timer.
      expect(Math.max(...quietDispatched), "work left by the dead instance is taken up as soon as its lease ends").toBeLessThan(LEASE_SECONDS * 1000 + 6_000);
      deaths.push({ endpoint: QUIET, diedAt: quietKilledAt, restartedAt: Date.now() });
      await Promise.all([cluster.restart(QUIET), settle()]);
      expect(runnerErrors).toEqual([]);

      // Every acknowledged job is there, read through another instance than the one that created it; no job twice.
      for (const [k, jobId] of jobIds.entries()) {
        const got = await cluster.call((createdVia[k] as number) === 0 ? 2 : 0, "GET", `/v2/agent/${projectId}/job/${jobId}`, { token: key });
        expect(got.status, jobId).toBe(200);
        expect(got.body.status, `job ${k}`).toBe(prJob(k) ? "archived" : "completed");
      }
      const { rows: jobRows } = await db.query<{ id: string; run_attempt: number; pr_number: number | null; tracking_comment_id: string | null }>(
        `SELECT id, run_attempt, pr_number, tracking_comment_id FROM jobs WHERE project_id = $1`,
        [projectId],
      );
      expect(jobRows.map((j) => j.id).sort()).toEqual([...jobIds].sort());

      // Every acknowledged message is there once; nothing is there that was not sent; each reached a run.
      const { rows: messageRows } = await db.query<{ job_id: string; seq: number; prompt: string; source: string; author: string | null; comment_id: string | null }>(
        `SELECT m.job_id, m.seq, m.prompt, m.source, m.author, m.comment_id FROM job_messages m JOIN jobs j ON j.id = m.job_id WHERE j.project_id = $1`,
        [projectId],
      );
      for (const m of apiMessages) expect(messageRows.filter((r) => r.job_id === m.jobId && r.prompt === m.prompt && r.source === "api"), m.prompt).toHaveLength(1);
      for (const c of comments) {
        expect(messageRows.filter((r) => Number(r.comment_id) === c.commentId), `comment ${c.commentId}`).toEqual([
          expect.objectContaining({ job_id: c.jobId, prompt: c.prompt, source: "comment", author: "alice" }),
        ]);
      }
      const sent = new Set([...apiMessages, ...ambiguousMessages, ...comments].map((m) => `${m.jobId} ${m.prompt}`));
      for (const row of messageRows) {
        if (row.seq !== 1) expect(sent.has(`${row.job_id} ${row.prompt}`), row.prompt).toBe(true);
        expect(reportedPrompts.get(row.job_id)?.has(row.prompt), `${row.prompt} reached a run`).toBe(true);
      }

      // Every run attempt of every job was dispatched exactly once, and claimed by exactly one workflow run.
      // The only repeat allowed: a call GitHub took from a killed process in its last moments, before it
      // could record it (no exactly-once exists across a crash between the send and the commit).
      const fromKilled = (call: AppCall) => deaths.some((d) => call.endpoint === d.endpoint && call.at >= d.diedAt - 3_000 && call.at <= d.restartedAt);
      const dispatches = new Map<string, AppCall[]>();
      for (const call of github.calls.filter((c) => !c.held && c.method === "POST" && c.path === `/repos/${REPO}/dispatches`)) {
        const run = `${call.body.client_payload.job_id}#${call.body.client_payload.run_attempt}`;
        dispatches.set(run, [...(dispatches.get(run) ?? []), call]);
      }
      const expectedRuns = jobRows.flatMap((j) => Array.from({ length: j.run_attempt }, (_, a) => `${j.id}#${a + 1}`));
      expect([...dispatches.keys()].sort()).toEqual([...expectedRuns].sort());
      const repeated: string[] = [];
      for (const run of expectedRuns) {
        const copies = dispatches.get(run) ?? [];
        if (copies.length > 1) repeated.push(run);
        expect(copies.length === 1 || (copies.length === 2 && copies.filter(fromKilled).length === 1), `${run} dispatched ${copies.length} times`).toBe(true);
        expect(claims.get(run), `${run} claimed once`).toHaveLength(1);
      }
      expect(refusedClaims.length, refusedClaims.join("\n")).toBe(repeated.length);
      const { rows: dispatchedEvents } = await db.query<{ job_id: string; detail: string; n: number }>(
        `SELECT e.job_id, e.detail, count(*)::int AS n FROM job_events e JOIN jobs j ON j.id = e.job_id WHERE j.project_id = $1 AND e.type = 'dispatched' GROUP BY 1, 2`,
        [projectId],
      );
      // Each dispatch is in the job's history once; one sent by a process that died before recording it may be missing.
      const recorded = new Map(dispatchedEvents.map((e) => [`${e.job_id}#${/(\d+)$/.exec(e.detail)?.[1]}`, e.n]));
      expect([...recorded.keys()].filter((run) => !expectedRuns.includes(run))).toEqual([]);
      for (const run of expectedRuns) {
        const n = recorded.get(run) ?? 0;
        expect(n === 1 || (n === 0 && (dispatches.get(run) ?? []).some(fromKilled)), `${run}: ${n} dispatched events`).toBe(true);
      }
      const { rows: runRows } = await db.query<{ job_id: string; run_attempt: number; reported: boolean }>(
        `SELECT r.job_id, r.run_attempt, r.reported_at IS NOT NULL AS reported FROM job_runs r JOIN jobs j ON j.id = r.job_id WHERE j.project_id = $1`,
        [projectId],
      );
      expect(runRows.filter((r) => r.reported).map((r) => `${r.job_id}#${r.run_attempt}`).sort()).toEqual([...expectedRuns].sort());

      // No job was ever active without a run on its way, none is active now, and no background work failed or was left behind.
      expect(stuckSeen).toEqual([]);
      // (the merged jobs' first-week notices are due a week from now)
      const { rows: unfinished } = await db.query(`SELECT kind, state, last_error FROM tasks WHERE state NOT IN ('done', 'skipped') AND NOT (kind = 'impact_notice' AND state = 'pending' AND last_error IS NULL)`);
      expect(unfinished).toEqual([]);

      // One tracking comment per PR, edited in place, last showing the archived job; each comment got one 👀.
      for (const job of jobRows.filter((j) => j.pr_number !== null)) {
        const created = github.calls.filter((c) => c.method === "POST" && c.path === `/repos/${REPO}/issues/${job.pr_number}/comments`);
        expect(created.length === 1 || (created.length === 2 && created.filter(fromKilled).length === 1), `PR ${job.pr_number}: ${created.length} comments`).toBe(true);
        const comment = github.comments.get(Number(job.tracking_comment_id));
        expect(comment?.issue).toBe(job.pr_number);
        expect(comment?.bodies.at(-1)).toMatch(/### Inkwell · 📦 Archived/);
      }
      for (const c of comments) {
        const reactions = github.calls.filter((call) => call.path === `/repos/${REPO}/issues/comments/${c.commentId}/reactions`);
        expect(reactions.length === 1 || (reactions.length === 2 && reactions.filter(fromKilled).length === 1), `comment ${c.commentId}: ${reactions.length} reactions`).toBe(true);
      }

      // Every hit batch was acknowledged whole; visitors and views equal a brute-force count, on every instance.
      expect(hitAnswers).toHaveLength(HIT_BATCHES);
      for (const answer of hitAnswers) expect(answer).toMatchObject({ accepted: 250, rejected: [] });
      const expectedVisitors = bruteForceVisitors(hits, null, null, (day) => windowOf("month", day).start);
      const expectedViews = bruteForceViews(hits, null, null);
      // A report first counts what was accepted before it; only an answer marked "pending" may be short.
      const counted = (i: number, report: "visitors" | "views") =>
        eventually(
          `${report} via instance ${i}`,
          async () => {
            const got = await cluster.call(i, "GET", `/v1/analytics/${projectId}/${report}?limit=250`, { token: key });
            return got.status === 200 && got.headers.get("inkwell-counting") !== "pending" && got.body;
          },
          SLOW_DEADLINE_MS,
          100,
        );
      for (const i of [0, 1, 2]) {
        const visitors = await counted(i, "visitors");
        expect({ totals: visitors.totals, rows: visitors.visitors, hasMore: visitors.hasMore }).toEqual({ totals: expectedVisitors.totals, rows: expectedVisitors.visitors, hasMore: false });
        const views = await counted(i, "views");
        expect({ totals: views.totals, rows: views.views, hasMore: views.hasMore }).toEqual({ totals: expectedViews.totals, rows: expectedViews.views, hasMore: false });
      }

      if (process.env.INKWELL_TEST_VERBOSE) {
        console.error(
          JSON.stringify({
            loadMs: loadEnded - started,
            killAfterMs: killedAt - started,
            restartMs: (deaths[0]?.restartedAt ?? 0) - killedAt,
            settleMs: settled - loadEnded,
            quietDispatchMs: quietDispatched,
            unanswered: cluster.unanswered,
            runs: expectedRuns.length,
            repeatedDispatches: repeated.length,
            ambiguousMessages: ambiguousMessages.length,
            githubCalls: github.calls.length,
          }),
        );
      }
    },
    150_000,
  );
});
