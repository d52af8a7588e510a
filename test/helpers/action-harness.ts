import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import nock from "nock";
import { fileURLToPath } from "node:url";
import { RunnerClient } from "../../src/action/runner-client.js";
import { readInputs, type ActionInputs, type InputName } from "../../src/action/inputs.js";
import { runJob, type JobRunOutcome } from "../../src/action/job-run.js";
import type { JobRunDependencies } from "../../src/action/job-run-types.js";
import { installationCreated } from "../fixtures/webhooks.js";
import { drainTasks } from "./drain.js";
import { startFakeGitHubRest } from "./fake-github-rest.js";
import { freePort } from "./free-port.js";
import { startFakeModel, type Script } from "./fake-model.js";
import { appEnv, deliver, fakeGitHubApp, GITHUB_API, isolateGitHub, nockAppAuth, startOidcIssuer } from "./github.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "./server.js";

// Beside this file, or from the repository root when a benchmark runs this module bundled elsewhere.
const FIXTURES = [path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "docs-repos"), path.resolve("test", "fixtures", "docs-repos")].find((dir) => existsSync(dir)) as string;
export const INSTALLATION_TOKEN = (installationId: number) => `ghs_inst_${installationId}`;

export const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "Docs Writer", GIT_AUTHOR_EMAIL: "writer@acme.test", GIT_COMMITTER_NAME: "Docs Writer", GIT_COMMITTER_EMAIL: "writer@acme.test" } }).trim();

/** A docs repository to start from: one of test/fixtures/docs-repos, or a folder (a real site from bench/real-docs). */
export type Fixture = "mintlify" | "docusaurus" | { name: string; dir: string };

/** A bare repository seeded from a fixture docs repo (one commit on main), standing in for GitHub. */
export function remoteFromFixture(fixture: Fixture): string {
  const name = typeof fixture === "string" ? fixture : fixture.name;
  const root = mkdtempSync(path.join(tmpdir(), `inkwell-${name}-`));
  const remote = path.join(root, "remote.git");
  git(root, "init", "--quiet", "--bare", "--initial-branch=main", remote);
  const seed = path.join(root, "seed");
  cpSync(typeof fixture === "string" ? path.join(FIXTURES, fixture) : fixture.dir, seed, { recursive: true });
  git(seed, "init", "--quiet", "--initial-branch=main");
  // -f: a real site's .gitignore may name files its repository holds.
  git(seed, "add", "-f", ".");
  git(seed, "commit", "--quiet", "-m", "Initial docs");
  git(seed, "remote", "add", "origin", remote);
  git(seed, "push", "--quiet", "origin", "main");
  return remote;
}

/** What actions/checkout leaves in GITHUB_WORKSPACE: a clone of the default branch. */
export function checkout(remote: string): string {
  const workspace = mkdtempSync(path.join(tmpdir(), "inkwell-workspace-"));
  git(workspace, "clone", "--quiet", remote, ".");
  return workspace;
}

/**
 * The inputs every run gets unless a test says otherwise. The framework's own checker is fetched
 * from npm, which tests cannot reach: framework-check.test.ts turns it on with a stand-in on PATH.
 */
const RUN_INPUTS: Partial<Record<InputName, string>> = { model: "openai-compatible/scripted", "api-key": "sk-test", "framework-check": "false" };

export interface ActionHarness {
  server: TestServer;
  model: Awaited<ReturnType<typeof startFakeModel>>;
  github: Awaited<ReturnType<typeof startFakeGitHubRest>>;
  /** Comments the service posted on issues and pull requests (tracking comments, replies), in order. */
  issueComments: Array<{ path: string; body: string }>;
  remote: string;
  repository: string;
  /** The App's installation on the docs repository. */
  installationId: number;
  projectId: string;
  apiKey: string;
  /** Creates a job through the public API (with per-job options) and returns what the workflow's dispatch event would carry. */
  createJob(prompt: string, options?: Record<string, unknown>): Promise<{ jobId: string; runAttempt: number }>;
  /** Sends a follow-up through the public API; returns the next run's dispatch. */
  followUp(jobId: string, prompt: string): Promise<{ jobId: string; runAttempt: number }>;
  job(jobId: string): Promise<Record<string, any>>;
  /** The Action's client of the runner protocol, authenticated like the workflow run; `fetch` to interfere with it. */
  client(fetchImpl?: typeof fetch): RunnerClient;
  /** The reports the runner sent for a job, by run attempt. */
  reports(jobId: string): Promise<Array<Record<string, any>>>;
  events(jobId: string): Promise<Array<{ type: string; data?: Record<string, unknown> | null }>>;
  /** Environment for running the real bundle (`node dist/index.js`) as GitHub's runner would; outputs land in `outputPath`. */
  bundleEnv(dispatched: { jobId: string; runAttempt: number }, workspace: string, inputs?: Record<string, string>): { env: Record<string, string>; outputPath: string };
  /** Runs the Action's job runner in-process against all of the above. */
  run(dispatched: { jobId: string; runAttempt: number }, options?: { inputs?: Partial<Record<InputName, string>>; workspace?: string } & Partial<Omit<JobRunDependencies, "inputs">>): Promise<JobRunOutcome & { logs: string[]; workspace: string }>;
  close(): Promise<void>;
}

let installations = 500;

/**
 * The Inkwell service (real, with its GitHub faked by nock), an OIDC issuer, a scripted model
 * server, GitHub's REST API for the Action and a bare git remote seeded from a fixture docs repo.
 * The project does not watch the repository's own checks (its PRs open ready when the gate passes)
 * unless `checkRepairRounds` says so.
 */
export async function startActionHarness(fixture: Fixture, script: Script, options: { env?: Record<string, string>; checkRepairRounds?: number } = {}): Promise<ActionHarness> {
  isolateGitHub();
  // The server's PUBLIC_URL is its own loopback address, so the real Action (a child process) can use it as inkwell-url and OIDC audience.
  const port = await freePort();
  const PUBLIC_URL = `http://127.0.0.1:${port}`;
  const installationId = ++installations;
  const repository = `acme/${typeof fixture === "string" ? fixture : fixture.name}-docs-${installationId}`;
  const repositoryId = 70_000 + installationId;
  const issuer = await startOidcIssuer();
  const server = await startTestServer({ env: appEnv({ PUBLIC_URL, INKWELL_OIDC_ISSUER: issuer.url, INKWELL_HEARTBEAT_SECONDS: "5", ...options.env }), github: fakeGitHubApp(), taskWorkerOptions: { backoffBaseMs: 10, backoffCapMs: 50 }, port });
  nockAppAuth(installationId);
  const repoReply = { id: repositoryId, full_name: repository, default_branch: "main", archived: false };
  nock(GITHUB_API).persist().get(`/repos/${repository}`).reply(200, repoReply);
  const issueComments: Array<{ path: string; body: string }> = [];
  const postComment = (uri: string, body: { body: string }) => (issueComments.push({ path: uri, body: body.body }), { id: 1 });
  nock(GITHUB_API).persist().patch(/\/repos\/.+\/issues\/comments\/\d+/).reply(200, { id: 1 });
  nock(GITHUB_API)
    .persist()
    .post(/\/repos\/.+\/issues\/\d+\/comments/)
    .reply(201, (uri, body) => postComment(uri, body as { body: string }));
  const dispatches: Array<{ job_id: string; run_attempt: number }> = [];
  nock(GITHUB_API)
    .persist()
    .post(`/repos/${repository}/dispatches`, (body: { client_payload: { job_id: string; run_attempt: number } }) => {
      dispatches.push(body.client_payload);
      return true;
    })
    .reply(204);
  // A stopped job's workflow run is cancelled on GitHub (forges/run-cancel.ts): GitHub accepts it.
  nock(GITHUB_API).persist().post(new RegExp(`^/repos/${repository}/actions/runs/\\d+/cancel$`)).reply(202, {});
  await deliver(server.url, "installation", installationCreated(installationId, [{ full_name: repository, id: repositoryId }]));
  await drainTasks(server);
  const { body: projects } = await server.call("GET", "/admin/projects", { token: ADMIN_TOKEN });
  const project = projects.projects.find((p: { repository: string }) => p.repository.endsWith(repository));
  await server.call("PATCH", `/admin/projects/${project.id}`, { token: ADMIN_TOKEN, body: { jobs: { checkRepairRounds: options.checkRepairRounds ?? 0 } } });
  const { body: key } = await server.call("POST", `/admin/projects/${project.id}/keys`, { token: ADMIN_TOKEN });

  const idTokens = await startIdTokenEndpoint((audience) => issuer.token({ repository, repository_id: String(repositoryId) }, { audience }));
  const model = await startFakeModel(script);
  const github = await startFakeGitHubRest({ token: INSTALLATION_TOKEN(installationId) });
  const remote = remoteFromFixture(fixture);

  const client = (fetchImpl?: typeof fetch) =>
    new RunnerClient({
      baseUrl: server.url,
      idToken: () => issuer.token({ repository, repository_id: String(repositoryId) }, { audience: PUBLIC_URL }),
      attempts: 2,
      backoffMs: 10,
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    });

  const nextDispatch = async (jobId: string) => {
    await drainTasks(server);
    const found = dispatches.filter((d) => d.job_id === jobId).at(-1);
    if (!found) throw new Error(`job ${jobId} was not dispatched`);
    return { jobId: found.job_id, runAttempt: found.run_attempt };
  };

  return {
    server,
    model,
    github,
    issueComments,
    remote,
    repository,
    installationId,
    projectId: project.id,
    apiKey: key.key,
    async createJob(prompt, options = {}) {
      const created = await server.call("POST", `/v2/agent/${project.id}/job`, { token: key.key, body: { prompt, ...options } });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      return nextDispatch(created.body.id);
    },
    async followUp(jobId, prompt) {
      const answer = await server.call("POST", `/v2/agent/${project.id}/job/${jobId}/message`, { token: key.key, body: { prompt } });
      if (answer.status !== 200) throw new Error(`message: ${answer.status} ${JSON.stringify(answer.body)}`);
      return nextDispatch(jobId);
    },
    async job(jobId) {
      await drainTasks(server);
      return (await server.call("GET", `/v2/agent/${project.id}/job/${jobId}`, { token: key.key })).body;
    },
    client,
    async reports(jobId) {
      const rows = await server.store.db.query<{ report: string | null }>(`SELECT report FROM job_runs WHERE job_id = $1 ORDER BY run_attempt`, [jobId]);
      return rows.map((row) => (row.report ? (JSON.parse(row.report) as Record<string, any>) : {}));
    },
    async events(jobId) {
      return (await server.call("GET", `/v2/agent/${project.id}/job/${jobId}/events`, { token: key.key })).body.events;
    },
    async run(dispatched, options = {}) {
      const { inputs: inputOverrides = {}, workspace: given, ...overrides } = options;
      const workspace = given ?? checkout(remote);
      const values: Record<string, string> = { ...RUN_INPUTS, "inkwell-url": PUBLIC_URL, "base-url": model.url, ...inputOverrides };
      const inputs: ActionInputs = readInputs((name) => values[name] ?? "");
      const logs: string[] = [];
      const inkwell = client();
      const outcome = await runJob({
        inputs,
        dispatched,
        inkwell,
        env: { workspace, repository, serverUrl: "https://github.com", apiUrl: github.url, runId: 4000 + dispatched.runAttempt, runUrl: `https://github.com/${repository}/actions/runs/${4000 + dispatched.runAttempt}` },
        log: { info: (m) => logs.push(m), warning: (m) => logs.push(`warning: ${m}`), secret: () => undefined },
        retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
        ...overrides,
      });
      return { ...outcome, logs, workspace };
    },
    bundleEnv(dispatched, workspace, inputs = {}) {
      const dir = mkdtempSync(path.join(tmpdir(), "inkwell-runner-"));
      const eventPath = path.join(dir, "event.json");
      writeFileSync(eventPath, JSON.stringify({ action: "inkwell-agent", client_payload: { job_id: dispatched.jobId, run_attempt: dispatched.runAttempt } }));
      const outputPath = path.join(dir, "output");
      writeFileSync(outputPath, "");
      const values: Record<string, string> = { ...RUN_INPUTS, "inkwell-url": PUBLIC_URL, "base-url": model.url, ...inputs };
      return {
        outputPath,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          GITHUB_ACTIONS: "true",
          GITHUB_REPOSITORY: repository,
          GITHUB_EVENT_NAME: "repository_dispatch",
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_WORKSPACE: workspace,
          GITHUB_SERVER_URL: "https://github.com",
          GITHUB_API_URL: github.url,
          GITHUB_RUN_ID: String(9000 + dispatched.runAttempt),
          GITHUB_OUTPUT: outputPath,
          ACTIONS_ID_TOKEN_REQUEST_URL: `${idTokens.url}/token?api-version=2.0`,
          ACTIONS_ID_TOKEN_REQUEST_TOKEN: "runtime-token",
          ...Object.fromEntries(Object.entries(values).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value])),
        },
      };
    },
    async close() {
      await idTokens.close();
      await model.close();
      await github.close();
      await server.close();
      await issuer.close();
      nock.cleanAll();
    },
  };
}

/** The runner's ID-token endpoint (ACTIONS_ID_TOKEN_REQUEST_URL): answers `{value}` for the audience asked. */
async function startIdTokenEndpoint(mint: (audience: string) => Promise<string>) {
  const server: Server = createServer((req, res) => {
    const audience = new URL(req.url ?? "/", "http://x").searchParams.get("audience") ?? "";
    if (req.headers.authorization !== "Bearer runtime-token") return void res.writeHead(401).end();
    mint(audience).then((value) => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ value })));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A job whose model writes half a page and then never answers, while the person watching cancels
 * the job through the API: the dispatch, and the cancel request once it has been sent.
 */
export async function jobCancelledWhileThinking(h: ActionHarness) {
  const cancel: { request?: Promise<{ status: number }> } = {};
  let jobId = "";
  h.model.setScript((_request, call) => {
    if (call === 0) return { tools: [{ name: "write_file", args: { path: "guides/half.mdx", content: "---\ntitle: Half\n---\n\nHalf a page", reason: "Started." } }] };
    cancel.request ??= h.server.call("POST", `/v2/agent/${h.projectId}/job/${jobId}/cancel`, { token: h.apiKey });
    return { hang: true };
  });
  const dispatched = await h.createJob("Rewrite the whole site");
  jobId = dispatched.jobId;
  return { dispatched, cancel };
}
