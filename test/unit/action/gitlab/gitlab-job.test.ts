import { describe, expect, it } from "vitest";
import { INPUT_DEFAULTS, type InputName } from "../../../../src/action/inputs.js";
import { gitlabInputVariable, readGitLabJob } from "../../../../src/action/gitlab/gitlab-job.js";

/** A job's variables as GitLab sets them for a pipeline Inkwell started (docs.gitlab.com/ci/variables/predefined_variables). */
const CI = {
  INKWELL_JOB_ID: "k3x9job",
  INKWELL_RUN_ATTEMPT: "2",
  INKWELL_ID_TOKEN: "eyJ.id.token",
  CI_JOB_TOKEN: "glcbt-64_job-token",
  CI_PROJECT_DIR: "/builds/acme/handbook/docs",
  CI_PROJECT_PATH: "acme/handbook/docs",
  CI_PROJECT_URL: "https://gitlab.example.com/acme/handbook/docs",
  CI_SERVER_URL: "https://gitlab.example.com",
  CI_SERVER_HOST: "gitlab.example.com",
  CI_API_V4_URL: "https://gitlab.example.com/api/v4",
  CI_PIPELINE_ID: "1234",
  CI_PIPELINE_URL: "https://gitlab.example.com/acme/handbook/docs/-/pipelines/1234",
  CI_JOB_ID: "98765",
  GITLAB_USER_NAME: "Inkwell",
  GITLAB_USER_EMAIL: "project_42_bot_abc@noreply.gitlab.example.com",
};

describe("the GitLab job the runner runs in", () => {
  it("reads the dispatched run, the pipeline as the run, the job token for git and the pipeline's user as the commit author", () => {
    const { job, problems } = readGitLabJob(CI);
    expect(problems).toEqual([]);
    expect(job).toEqual({
      dispatched: { jobId: "k3x9job", runAttempt: 2 },
      env: {
        workspace: "/builds/acme/handbook/docs",
        repository: "acme/handbook/docs",
        serverUrl: "https://gitlab.example.com",
        apiUrl: "https://gitlab.example.com/api/v4",
        runId: 1234,
        runUrl: "https://gitlab.example.com/acme/handbook/docs/-/pipelines/1234",
        ciJobId: 98765,
      },
      identity: {
        jobToken: "glcbt-64_job-token",
        projectUrl: "https://gitlab.example.com/acme/handbook/docs",
        userName: "Inkwell",
        userEmail: "project_42_bot_abc@noreply.gitlab.example.com",
        serverHost: "gitlab.example.com",
      },
      idToken: "eyJ.id.token",
    });
  });

  it("takes the first run when Inkwell sent no attempt", () => {
    const { INKWELL_RUN_ATTEMPT: _, ...rest } = CI;
    expect(readGitLabJob(rest).job?.dispatched).toEqual({ jobId: "k3x9job", runAttempt: 1 });
  });

  it("says why it cannot run, with the fix: a pipeline Inkwell did not start, no ID token, not GitLab CI", () => {
    const { INKWELL_JOB_ID: _job, INKWELL_ID_TOKEN: _token, ...rest } = CI;
    expect(readGitLabJob(rest).problems).toEqual([
      expect.stringMatching(/^INKWELL_JOB_ID is unset: this pipeline was not started by Inkwell/),
      expect.stringMatching(/^INKWELL_ID_TOKEN is unset: the job needs `id_tokens: \{ INKWELL_ID_TOKEN: \{ aud: <your Inkwell URL> \} \}`/),
    ]);
    expect(readGitLabJob({ PATH: "/usr/bin" }).problems).toContain("CI_PROJECT_PATH is unset: run this inside a GitLab CI/CD job");
    expect(readGitLabJob({ ...CI, INKWELL_JOB_ID: "../../etc", INKWELL_RUN_ATTEMPT: "0" }).problems).toEqual(["INKWELL_JOB_ID is not an Inkwell job id", "INKWELL_RUN_ATTEMPT must be a whole number from 1"]);
  });

  it("names each input as a CI/CD variable GitLab allows (letters, digits, underscores)", () => {
    const names = Object.keys(INPUT_DEFAULTS).map((name) => gitlabInputVariable(name as InputName));
    expect(names).toContain("INKWELL_URL");
    expect(names).toContain("INKWELL_MODEL_API_KEY");
    expect(names).toContain("INKWELL_MAX_OUTPUT_TOKENS");
    for (const name of names) expect(name).toMatch(/^INKWELL_[A-Z0-9_]+$/);
    expect(new Set(names).size).toBe(names.length);
  });
});
