import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../helpers/eventually.js";
import type { FakeGitLab } from "../../helpers/fake-gitlab.js";
import { steps, type startFakeModel } from "../../helpers/fake-model.js";
import { startGitLabInkwell } from "../../helpers/gitlab-inkwell.js";
import type { TestServer } from "../../helpers/server.js";
import { gitLabSetupBody } from "../../../src/app/dashboard/gitlab/page.js";
import type { Project } from "../../../src/app/domain/projects.js";

/**
 * The component's job run for real by gitlab-ci-local (a GitLab CI runner for one machine) in a
 * clone of the docs project, against Inkwell and the fake GitLab: the docs project's .gitlab-ci.yml
 * includes templates/inkwell-agent.yml as a catalog component with inputs, the job's rules, variables
 * and script run in a shell, the script fetches the committed runner bundle (dist/) at a release tag
 * and runs it, and the merge request opens.
 *
 * What gitlab-ci-local does not do, and the test stands in for: it mints no `id_tokens` (the fake
 * GitLab signs the token, passed as INKWELL_ID_TOKEN) and has no CI_JOB_TOKEN (a dummy one; the
 * remote is a local bare repository, so no push permission is exercised); it cannot fetch a
 * component from another project over HTTP (the component is placed in its include cache, as its
 * own download would); the job runs in a shell, not in the `node:24` image; the pipeline is not
 * started by GitLab's pipeline API (the fake GitLab records Inkwell's call; its variables are passed on).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const FIXTURE = path.join(ROOT, "test", "fixtures", "docs-repos", "mintlify");
const GITLAB_CI_LOCAL = path.join(ROOT, "node_modules", "gitlab-ci-local", "dist", "index.js");
const COMPONENT_PROJECT = "platform/inkwell";

/** gitlab-ci-local 4.75 needs Node 22 or later: this Node, or the one INKWELL_GITLAB_CI_LOCAL_NODE names (.ci/run sets it). */
function nodeForGitlabCiLocal(): string | null {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  return process.env.INKWELL_GITLAB_CI_LOCAL_NODE || null;
}
const NODE = nodeForGitlabCiLocal();

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "Docs Writer", GIT_AUTHOR_EMAIL: "writer@acme.test", GIT_COMMITTER_NAME: "Docs Writer", GIT_COMMITTER_EMAIL: "writer@acme.test" } }).trim();



/** Inkwell's repository as the component fetches it: the committed bundle at a release tag. */
function runnerRepository(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "inkwell-runner-repo-"));
  cpSync(path.join(ROOT, "dist"), path.join(dir, "dist"), { recursive: true });
  git(dir, "init", "--quiet", "--initial-branch=main");
  git(dir, "add", ".");
  git(dir, "commit", "--quiet", "-m", "Release");
  git(dir, "tag", "v1");
  return dir;
}

function gitlabCiLocal(cwd: string, args: string[]): Promise<{ code: number; output: string; stdout: string }> {
  return new Promise((resolve) => {
    const home = mkdtempSync(path.join(tmpdir(), "gcl-home-"));
    // The job's `node` is this test's Node: the bundle runs on every Node the Action supports.
    const env = { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ""}`, HOME: home, NO_COLOR: "1", FORCE_COLOR: "0" };
    execFile(NODE as string, [GITLAB_CI_LOCAL, "--home", home, "--no-color", "--force-shell-executor", ...args], { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}`, stdout });
    });
  });
}

describe.skipIf(!NODE)("the GitLab CI/CD component run by gitlab-ci-local", () => {
  let t: TestServer;
  let gitlab: FakeGitLab;
  let model: Awaited<ReturnType<typeof startFakeModel>>;
  let publicUrl: string;
  let projectId: string;
  let key: string;
  let runner: string;

  let setup: Awaited<ReturnType<typeof startGitLabInkwell>>;

  beforeAll(async () => {
    setup = await startGitLabInkwell(FIXTURE, "gitlab-ci-local");
    ({ gitlab, model, t, publicUrl, projectId, key } = setup);
    runner = runnerRepository();
  });
  afterAll(() => setup?.close());

  /**
   * The docs project's clone as GitLab's runner leaves it, with its .gitlab-ci.yml (committed on the
   * default branch) including the component from Inkwell's catalog project at v1.
   */
  function docsProject(): string {
    const dir = mkdtempSync(path.join(tmpdir(), "inkwell-gcl-docs-"));
    git(dir, "clone", "--quiet", gitlab.remote, ".");
    // gitlab-ci-local reads the project's GitLab host and path from this remote; git uses origin.
    git(dir, "remote", "add", "gcl-origin", `${gitlab.url}/${gitlab.projectPath}.git`);
    const host = new URL(gitlab.url).host;
    const pipelineFile = path.join(dir, ".gitlab-ci.yml");
    const before = existsSync(pipelineFile) ? readFileSync(pipelineFile, "utf8") : null;
    writeFileSync(
      pipelineFile,
      [
        "include:",
        `  - component: $CI_SERVER_FQDN/${COMPONENT_PROJECT}/inkwell-agent@v1`,
        "    inputs:",
        `      inkwell-url: ${publicUrl}`,
        `      runner-repository: ${runner}`,
        "      model: openai-compatible/scripted",
        `      base-url: ${model.url}`,
        '      framework-check: "false"',
        "",
      ].join("\n"),
    );
    if (readFileSync(pipelineFile, "utf8") !== before) {
      git(dir, "add", ".gitlab-ci.yml");
      git(dir, "commit", "--quiet", "-m", "Inkwell's runner");
      git(dir, "push", "--quiet", "origin", "HEAD:main");
    }
    // The component as gitlab-ci-local's own download would place it.
    const cached = path.join(dir, ".gitlab-ci-local", "includes", host.split(":")[0] as string, COMPONENT_PROJECT, "v1", "templates");
    mkdirSync(cached, { recursive: true });
    cpSync(path.join(ROOT, "templates", "inkwell-agent.yml"), path.join(cached, "inkwell-agent.yml"));
    // The runner's checkout cleans untracked files; gitlab-ci-local keeps its state in the project.
    writeFileSync(path.join(dir, ".git", "info", "exclude"), ".gitlab-ci-local/\n");
    return dir;
  }

  it("leaves the job out of pipelines Inkwell did not start, and keeps it in those that carry INKWELL_JOB_ID", async () => {
    const dir = docsProject();
    const { code, output } = await gitlabCiLocal(dir, ["--list-json"]);
    expect(code, output).toBe(0);
    const jobs = JSON.parse(output.slice(output.indexOf("["), output.lastIndexOf("]") + 1)) as Array<{ name: string; when: string }>;
    expect(jobs).toEqual([expect.objectContaining({ name: "inkwell-agent", when: "never" })]);
    const started = await gitlabCiLocal(dir, ["--list-json", "--variable", "INKWELL_JOB_ID=k3x9job"]);
    expect(JSON.parse(started.output.slice(started.output.indexOf("["), started.output.lastIndexOf("]") + 1))).toEqual([expect.objectContaining({ name: "inkwell-agent", when: "on_success" })]);
  });

  it("gives the same job as a plain `include: project:` with inputs, for instances without the CI/CD catalog", async () => {
    const dir = docsProject();
    const inputs = ["    inputs:", `      inkwell-url: ${publicUrl}`, `      runner-repository: ${runner}`, "      runner-ref: v1.2.3", ""];
    writeFileSync(path.join(dir, "plain.yml"), ["include:", `  - project: ${COMPONENT_PROJECT}`, "    ref: v1", "    file: templates/inkwell-agent.yml", ...inputs].join("\n"));
    writeFileSync(path.join(dir, "catalog.yml"), ["include:", `  - component: $CI_SERVER_FQDN/${COMPONENT_PROJECT}/inkwell-agent@v1`, ...inputs].join("\n"));
    const preview = async (file: string) => {
      const { code, output, stdout } = await gitlabCiLocal(dir, ["--file", file, "--preview"]);
      expect(code, output).toBe(0);
      return stdout;
    };
    const plain = await preview("plain.yml");
    expect(plain).toContain(`aud: ${publicUrl}`);
    expect(plain).toContain(`INKWELL_URL: ${publicUrl}`);
    expect(plain).toContain(`fetch --quiet --depth 1 "${runner}" "v1.2.3"`);
    expect(plain).toContain("INKWELL_MAX_TURNS: '40'");
    expect(await preview("catalog.yml")).toBe(plain);
  });

  it("accepts the dashboard's Setup snippet as the project's .gitlab-ci.yml: every required input given, the pipeline inputs passed on", async () => {
    const dir = docsProject();
    const page = String(gitLabSetupBody({ repository: `${gitlab.url}/${gitlab.projectPath}`, model: "anthropic/claude-sonnet-4-5" } as Project, publicUrl));
    const snippet = (/<code id="gitlab-include">([\s\S]*?)<\/code>/.exec(page)?.[1] ?? "")
      .replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&")
      // What the operator fills in: the catalog project and release, and the Git URL of their Inkwell mirror.
      .replace("<group>/inkwell/inkwell-agent@<release>", `${COMPONENT_PROJECT}/inkwell-agent@v1`)
      .replace("https://<your GitLab>/<group>/inkwell.git", runner);
    expect(snippet).not.toMatch(/<[a-z ]+>/i);
    writeFileSync(path.join(dir, "setup.yml"), snippet);
    const { code, output, stdout } = await gitlabCiLocal(dir, ["--file", "setup.yml", "--preview"]);
    expect(code, output).toBe(0);
    expect(stdout).toContain(`aud: ${publicUrl}`);
    expect(stdout).toContain(`INKWELL_URL: ${publicUrl}`);
    expect(stdout).toContain(`"${runner}"`);
    // What the snippet once was: without runner-repository, the component's spec refuses it.
    writeFileSync(path.join(dir, "missing.yml"), snippet.split("\n").filter((line) => !line.includes("runner-repository:")).join("\n"));
    const refused = await gitlabCiLocal(dir, ["--file", "missing.yml", "--preview"]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("runner-repository");
  });

  it("runs the job of Inkwell's pipeline: the runner claims with the ID token, pushes, and the merge request opens", async () => {
    model.setScript(
      steps(
        { tools: [{ name: "write_file", args: { path: "guides/export.mdx", content: "---\ntitle: Export\n---\n\nRun `acme export`.\n", reason: "The page asked for." } }] },
        { tools: [{ name: "edit_file", args: { path: "docs.json", find: '"pages": ["guides/webhooks"]', replace: '"pages": ["guides/webhooks", "guides/export"]', reason: "Lists it." } }] },
        { text: "Document the export command\n\nA guide to `acme export`." },
      ),
    );
    const dir = docsProject();
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Document the export command" } });
    expect(created.status).toBe(201);
    const jobId = created.body.id as string;
    const pipeline = await eventually("Inkwell's pipeline", () => gitlab.pipelines.find((p) => p.variables.INKWELL_JOB_ID === jobId));
    const idToken = await gitlab.idToken({ pipeline_id: String(pipeline.id) }, { audience: publicUrl });

    const variables = {
      ...pipeline.variables,
      CI_PIPELINE_ID: String(pipeline.id),
      INKWELL_ID_TOKEN: idToken,
      CI_JOB_TOKEN: "glcbt-64_gitlab-ci-local",
      CI_PROJECT_DIR: dir,
      INKWELL_MODEL_API_KEY: "sk-test",
    };
    const { code, output } = await gitlabCiLocal(dir, ["inkwell-agent", ...Object.entries(variables).flatMap(([name, value]) => ["--variable", `${name}=${value}`])]);
    expect(code, output).toBe(0);
    expect(output).toMatch(/PASS\s+inkwell-agent/);
    expect(output).not.toContain("sk-test");
    expect(output).not.toContain("glcbt-64_gitlab-ci-local");

    const mr = gitlab.mergeRequests.find((m) => m.source_branch === `inkwell/${jobId}`);
    expect(mr).toMatchObject({ target_branch: "main", title: "Document the export command", draft: false, state: "opened" });
    expect(output).toContain(`Merge request: ${mr?.web_url}`);
    expect(await (await t.call("GET", `/v2/agent/${projectId}/job/${jobId}`, { token: key })).body).toMatchObject({ status: "completed", prLink: mr?.web_url });
    expect(git(gitlab.remote, "show", `inkwell/${jobId}:guides/export.mdx`)).toContain("acme export");
    expect(readFileSync(path.join(dir, "inkwell.env"), "utf8")).toBe(`INKWELL_JOB_ID=${jobId}\nINKWELL_STATUS=completed\nINKWELL_MR_URL=${mr?.web_url}\n`);
    expect(existsSync(path.join(dir, ".gitlab-ci-local"))).toBe(true);
  });
});
