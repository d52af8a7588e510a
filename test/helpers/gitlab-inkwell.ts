import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { runInGitLab } from "../../src/action/gitlab/run-gitlab.js";
import { GITLAB_BOT, GITLAB_TOKEN, startFakeGitLab, type FakeGitLab } from "./fake-gitlab.js";
import { freePort } from "./free-port.js";
import { startFakeModel, steps } from "./fake-model.js";
import { ADMIN_TOKEN, startTestServer } from "./server.js";

/** A directory's files as a path → content record (a fake repository's first commit). */
export function filesOf(dir: string, prefix = ""): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(files, filesOf(full, `${prefix}${name}/`));
    else files[`${prefix}${name}`] = readFileSync(full, "utf8");
  }
  return files;
}

/**
 * Inkwell with a GitLab project connected through its admin API, as a runner in GitLab CI meets
 * it: a fake GitLab holding `docsDir`'s files, a fake model, and the server at its own PUBLIC_URL
 * (the runner reports there, and it is the ID token's audience). `keyName` names the project key.
 * The project does not watch the repository's own checks unless `checkRepairRounds` says so.
 */
export async function startGitLabInkwell(docsDir: string, keyName: string, options: { checkRepairRounds?: number } = {}) {
  const gitlab = await startFakeGitLab({ files: filesOf(docsDir) });
  const model = await startFakeModel(steps({ text: "unused" }));
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const t = await startTestServer({ env: { PUBLIC_URL: publicUrl, INKWELL_HEARTBEAT_SECONDS: "5" }, port, taskWorkerOptions: { backoffBaseMs: 10, backoffCapMs: 50 } });
  const connected = await t.call("POST", "/admin/gitlab/projects", { token: ADMIN_TOKEN, body: { gitlabUrl: gitlab.url, project: gitlab.projectPath, token: GITLAB_TOKEN, jobs: { checkRepairRounds: options.checkRepairRounds ?? 0 } } });
  expect(connected.status, JSON.stringify(connected.body)).toBe(201);
  const projectId: string = connected.body.id;
  const key: string = (await t.call("POST", `/admin/projects/${projectId}/keys`, { token: ADMIN_TOKEN, body: { name: keyName } })).body.key;
  return {
    gitlab,
    model,
    t,
    publicUrl,
    projectId,
    key,
    async close() {
      await t.close();
      await model.close();
      await gitlab.close();
    },
  };
}

/** The pipeline's CI_JOB_TOKEN in these tests: it must never reach a log, the git config or the job's record. */
export const JOB_TOKEN = "glcbt-64_fake-job-token-0123456789";

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

/**
 * The component's job in one pipeline: GitLab's runner has cloned the default branch into
 * CI_PROJECT_DIR and set the pipeline's variables, the predefined ones and the ID token; the
 * project's masked INKWELL_MODEL_API_KEY and the component's inputs are variables too.
 */
export async function runGitLabPipeline(
  setup: { gitlab: FakeGitLab; publicUrl: string; model: { url: string } },
  pipeline: FakeGitLab["pipelines"][number],
  overrides: Record<string, string> = {},
) {
  const { gitlab, publicUrl, model } = setup;
  const workspace = mkdtempSync(path.join(tmpdir(), "inkwell-gitlab-ci-"));
  git(workspace, "clone", "--quiet", "--branch", pipeline.ref, gitlab.remote, ".");
  const projectUrl = `${gitlab.url}/${gitlab.projectPath}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...pipeline.variables,
    INKWELL_ID_TOKEN: await gitlab.idToken({ pipeline_id: String(pipeline.id), job_id: "5001" }, { audience: publicUrl }),
    CI_JOB_TOKEN: JOB_TOKEN,
    CI_PROJECT_DIR: workspace,
    CI_PROJECT_PATH: gitlab.projectPath,
    CI_PROJECT_URL: projectUrl,
    CI_SERVER_URL: gitlab.url,
    CI_SERVER_HOST: new URL(gitlab.url).hostname,
    CI_API_V4_URL: `${gitlab.url}/api/v4`,
    CI_PIPELINE_ID: String(pipeline.id),
    CI_PIPELINE_URL: `${projectUrl}/-/pipelines/${pipeline.id}`,
    CI_JOB_ID: "5001",
    GITLAB_USER_NAME: GITLAB_BOT.name,
    GITLAB_USER_EMAIL: `${GITLAB_BOT.username}@noreply.gitlab.test`,
    INKWELL_MODEL_API_KEY: "sk-test",
    INKWELL_MODEL: "openai-compatible/scripted",
    INKWELL_BASE_URL: model.url,
    INKWELL_FRAMEWORK_CHECK: "false",
    INKWELL_DOTENV: "inkwell.env",
    ...overrides,
  };
  const logs: string[] = [];
  const code = await runInGitLab(env, { write: (line) => logs.push(line) });
  return { code, logs: logs.join("\n"), workspace };
}
