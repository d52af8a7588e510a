import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { gitLabSetupBody } from "../../../../../src/app/dashboard/gitlab/page.js";
import type { Project } from "../../../../../src/app/domain/projects.js";
import { ciConfigWithInputs, declaredInputs, pipelineParameters, refusesPipelineVariables } from "../../../../../src/app/forges/gitlab/pipeline-inputs.js";

const [componentSpec] = parseAllDocuments(readFileSync("templates/inkwell-agent.yml", "utf8")).map((doc) => doc.toJS() as { spec: { inputs: Record<string, { default?: string }> } });
/** The component's inputs without a default: an include that leaves one out is refused by GitLab. */
const required = Object.entries(componentSpec!.spec.inputs).filter(([, input]) => input.default === undefined).map(([name]) => name);
const run = { jobId: "job_1", runAttempt: 2, publicUrl: "https://inkwell.example.com" };

describe("how a run reaches the docs project's pipeline", () => {
  it("as pipeline inputs where the CI configuration's header declares Inkwell's two, else as variables", () => {
    const withInputs = ciConfigWithInputs("gitlab.example.com/acme/inkwell/inkwell-agent@1.0.0", { "inkwell-url": run.publicUrl, "runner-repository": "https://gitlab.example.com/acme/inkwell.git" });
    expect([...declaredInputs(withInputs)]).toEqual(["inkwell-job-id", "inkwell-run-attempt"]);
    expect(pipelineParameters(withInputs, run)).toEqual({ inputs: { "inkwell-job-id": "job_1", "inkwell-run-attempt": "2" } });
    const plain = "include:\n  - component: gitlab.example.com/acme/inkwell/inkwell-agent@1.0.0\n";
    expect(pipelineParameters(plain, run)).toEqual({ variables: { INKWELL_JOB_ID: "job_1", INKWELL_RUN_ATTEMPT: "2", INKWELL_URL: run.publicUrl } });
    expect(pipelineParameters(null, run)).toHaveProperty("variables");
    expect(pipelineParameters("spec:\n  inputs:\n    inkwell-job-id: {}\n---\njob: {}\n", run)).toHaveProperty("variables");
    expect(pipelineParameters("spec: [unclosed", run)).toHaveProperty("variables");
  });

  it("knows GitLab's refusal of pipeline variables by its words", () => {
    expect(refusesPipelineVariables('{"base":["Insufficient permissions to set pipeline variables"]}')).toBe(true);
    expect(refusesPipelineVariables("Reference not found")).toBe(false);
    expect(refusesPipelineVariables(null)).toBe(false);
  });

  it("the dashboard's Setup snippet gives every input the component requires and passes Inkwell's pipeline inputs on", () => {
    const body = String(gitLabSetupBody({ repository: "https://gitlab.example.com/acme/docs", model: "anthropic/claude-sonnet-4-5" } as Project, "https://inkwell.example.com"));
    const snippet = /<code id="gitlab-include">([\s\S]*?)<\/code>/.exec(body)?.[1]?.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&#39;", "'") ?? "";
    const [header, config] = parseAllDocuments(snippet).map((doc) => doc.toJS() as Record<string, any>);
    expect(Object.keys(header?.spec.inputs ?? {})).toEqual(["inkwell-job-id", "inkwell-run-attempt"]);
    const given = config?.include?.[0]?.inputs ?? {};
    for (const name of required) expect(given[name], name).toBeTruthy();
    expect(given).toMatchObject({ "job-id": "$[[ inputs.inkwell-job-id ]]", "run-attempt": "$[[ inputs.inkwell-run-attempt ]]" });
    for (const name of Object.keys(given)) expect(Object.keys(componentSpec!.spec.inputs), name).toContain(name);
  });
});

describe("connecting: what in the project's settings would stop its first job", () => {
  const info = { id: 42, pathWithNamespace: "acme/docs", defaultBranch: "main", webUrl: "https://gitlab.com/acme/docs", archived: false, ciConfigPath: ".gitlab-ci.yml", pipelineVariablesRole: "no_one_allowed", jobTokenPushAllowed: false };
  it("names each with what to change; none where the project is ready", async () => {
    const { connectWarnings } = await import("../../../../../src/app/forges/gitlab/connect.js");
    const warnings = connectWarnings(info, null, "http://10.0.0.5:3000", "https://gitlab.example.com");
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/lets no one set pipeline variables .* Minimum role to use pipeline variables/);
    expect(warnings[1]).toMatch(/Allow Git push requests to the repository/);
    expect(warnings[2]).toMatch(/Allow requests to the local network from webhooks and integrations/);
    expect(connectWarnings(info, null, "http://localhost:3000", "https://gitlab.com")[2]).toMatch(/GitLab.com cannot reach/);
    const ready = ciConfigWithInputs("x/inkwell-agent@1", { "inkwell-url": "https://inkwell.example.com", "runner-repository": "https://g/x.git" });
    expect(connectWarnings({ ...info, jobTokenPushAllowed: true }, ready, "https://inkwell.example.com", "https://gitlab.com")).toEqual([]);
    expect(connectWarnings({ ...info, pipelineVariablesRole: "developer", jobTokenPushAllowed: null }, null, "https://inkwell.example.com", "https://gitlab.com")).toEqual([]);
  });
});
