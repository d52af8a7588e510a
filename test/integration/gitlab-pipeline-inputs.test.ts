import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ciConfigWithInputs } from "../../src/app/forges/gitlab/pipeline-inputs.js";
import { eventually } from "../helpers/eventually.js";
import { steps } from "../helpers/fake-model.js";
import { runGitLabPipeline, startGitLabInkwell } from "../helpers/gitlab-inkwell.js";

/**
 * A GitLab.com project created with today's defaults: no one may set pipeline variables, so GitLab
 * refuses a pipeline that carries them (400). A project whose .gitlab-ci.yml declares Inkwell's
 * pipeline inputs and passes them to the component gets its runs through them; one that does not is
 * told GitLab's own words and exactly what to change.
 */
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "docs-repos", "mintlify");

let setup: Awaited<ReturnType<typeof startGitLabInkwell>>;
beforeAll(async () => {
  setup = await startGitLabInkwell(FIXTURE, "gitlab-inputs");
  setup.gitlab.settings.pipelineVariablesRole = "no_one_allowed";
});
afterAll(() => setup?.close());

const job = async (id: string) => (await setup.t.call("GET", `/v2/agent/${setup.projectId}/job/${id}`, { token: setup.key })).body;

describe("a GitLab project where no one may set pipeline variables", () => {
  let jobId: string;

  it("without Inkwell's inputs declared, the job fails with GitLab's own message and what to change", async () => {
    const created = await setup.t.call("POST", `/v2/agent/${setup.projectId}/job`, { token: setup.key, body: { prompt: "Document the export command" } });
    jobId = created.body.id;
    const failed = await eventually("the job failed", async () => ((await job(jobId)).status === "failed" ? job(jobId) : undefined));
    expect(failed.error).toContain("Insufficient permissions to set pipeline variables");
    expect(failed.error).toContain("Declare Inkwell's pipeline inputs (inkwell-job-id, inkwell-run-attempt)");
    expect(failed.error).toContain("Minimum role to use pipeline variables");
    expect(setup.gitlab.pipelines).toHaveLength(0);
  });

  it("with the inputs declared and passed to the component, the run arrives through them and the job completes", async () => {
    const { gitlab, model, publicUrl } = setup;
    gitlab.pushBranch("main", {
      ".gitlab-ci.yml": ciConfigWithInputs(`${new URL(gitlab.url).host}/acme/inkwell/inkwell-agent@1.0.0`, { "inkwell-url": publicUrl, "runner-repository": `${gitlab.url}/acme/inkwell.git` }),
    });
    model.setScript(
      steps(
        { tools: [{ name: "write_file", args: { path: "guides/export.mdx", content: "---\ntitle: Export\n---\n\nRun `acme export`.\n", reason: "The page asked for." } }] },
        { tools: [{ name: "edit_file", args: { path: "docs.json", find: '"pages": ["guides/webhooks"]', replace: '"pages": ["guides/webhooks", "guides/export"]', reason: "Lists the new page." } }] },
        { text: "Document the export command" },
      ),
    );
    const again = await setup.t.call("POST", `/v2/agent/${setup.projectId}/job/${jobId}/message`, { token: setup.key, body: { prompt: "Go on" } });
    expect(again.status).toBe(200);
    const pipeline = await eventually("the pipeline", () => gitlab.pipelines.find((p) => p.inputs?.["inkwell-job-id"] === jobId));
    // Inputs only: not a variable was sent; the component's job has them as its variables.
    expect(pipeline.inputs).toEqual({ "inkwell-job-id": jobId, "inkwell-run-attempt": "2" });
    expect(pipeline.variables).toMatchObject({ INKWELL_JOB_ID: jobId, INKWELL_RUN_ATTEMPT: "2", INKWELL_URL: publicUrl });
    const run = await runGitLabPipeline(setup, pipeline);
    expect(run.code, run.logs).toBe(0);
    const done = await eventually("the job completed", async () => ((await job(jobId)).status === "completed" ? job(jobId) : undefined));
    expect(done.prLink).toMatch(/\/-\/merge_requests\/\d+$/);
  });
});
