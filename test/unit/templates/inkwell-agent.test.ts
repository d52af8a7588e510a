import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { gitlabInputVariable } from "../../../src/action/gitlab/gitlab-job.js";
import { INPUT_DEFAULTS, type InputName } from "../../../src/action/inputs.js";

// A CI/CD component is two YAML documents: the spec with its inputs, then the jobs (docs.gitlab.com/ci/components).
const [specDoc, jobsDoc] = parseAllDocuments(readFileSync(new URL("../../../templates/inkwell-agent.yml", import.meta.url), "utf8"));
const inputs = (specDoc?.toJS() as { spec: { inputs: Record<string, { default?: string; description?: string }> } }).spec.inputs;
const job = (jobsDoc?.toJS() as Record<string, any>)["inkwell-agent"];
/** The runner's own inputs; the model's key is never an input, it is the project's masked CI/CD variable. */
const RUNNER_INPUTS: InputName[] = (Object.keys(INPUT_DEFAULTS) as InputName[]).filter((name) => name !== "api-key");

describe("the GitLab CI/CD component docs projects include", () => {
  it("runs only in pipelines Inkwell starts: the job id from the pipeline's inputs passed on, or from the variable on older instances", () => {
    expect(job.rules).toEqual([{ if: "$INKWELL_JOB_ID" }]);
    expect(job.variables.INKWELL_JOB_ID).toBe("$[[ inputs.job-id ]]");
    expect(job.variables.INKWELL_RUN_ATTEMPT).toBe("$[[ inputs.run-attempt ]]");
    expect(inputs["job-id"]?.default).toBe("");
    expect(inputs["run-attempt"]?.default).toBe("");
  });

  it("asks for an ID token whose audience is Inkwell's URL, and holds no secret", () => {
    expect(job.id_tokens).toEqual({ INKWELL_ID_TOKEN: { aud: "$[[ inputs.inkwell-url ]]" } });
    expect(inputs["inkwell-url"]?.default).toBeUndefined();
    expect(Object.keys(inputs)).not.toContain("api-key");
    expect(Object.keys(job.variables)).not.toContain("INKWELL_MODEL_API_KEY");
  });

  it("hands every runner input to the runner under the variable it reads, with the Action's defaults", () => {
    for (const name of RUNNER_INPUTS) {
      expect(job.variables[gitlabInputVariable(name)], name).toBe(`$[[ inputs.${name} ]]`);
      expect(inputs[name]?.description, name).toBeTruthy();
      if (name !== "inkwell-url") expect(inputs[name]?.default, name).toBe(INPUT_DEFAULTS[name]);
    }
    const extra = Object.keys(inputs).filter((name) => !RUNNER_INPUTS.includes(name as InputName));
    expect(extra.sort()).toEqual(["image", "job-id", "job-timeout", "run-attempt", "runner-ref", "runner-repository", "stage"]);
  });

  it("fetches the runner at the release asked for and runs its GitLab mode; the outcome is a dotenv report", () => {
    const script = (job.script as string[]).join("\n");
    expect(script).toContain('fetch --quiet --depth 1 "$[[ inputs.runner-repository ]]" "$[[ inputs.runner-ref ]]"');
    expect(script).toMatch(/node "\$INKWELL_RUNNER_DIR\/dist\/index\.js" gitlab$/);
    expect(job.variables.INKWELL_DOTENV).toBe("inkwell.env");
    expect(job.artifacts).toEqual({ when: "always", reports: { dotenv: "inkwell.env" } });
    expect(job.image).toBe("$[[ inputs.image ]]");
    expect(inputs.image?.default).toBe("node:24");
  });
});
