import { parseAllDocuments } from "yaml";

/**
 * How Inkwell hands a run to the docs project's pipeline (docs/gitlab.md, "Pipeline inputs").
 * GitLab.com creates projects where no one may set pipeline variables (the "Minimum role to use
 * pipeline variables" is `no_one_allowed` since GitLab 17.7), and the pipeline API then refuses
 * variables with a 400. Pipeline inputs are allowed there: a project whose CI configuration declares
 * Inkwell's inputs in its `spec:inputs` header gets the job through them; any other gets variables,
 * as instances before pipeline inputs need. What the project declares decides, not a guess.
 */
export const PIPELINE_INPUTS = { jobId: "inkwell-job-id", runAttempt: "inkwell-run-attempt" } as const;

export type PipelineParameters = { inputs: Record<string, string> } | { variables: Record<string, string> };

/** The inputs a CI configuration declares in its header (`spec:inputs` of its first YAML document); none when it has no header or does not parse. */
export function declaredInputs(config: string | null): Set<string> {
  if (!config) return new Set();
  try {
    const [header] = parseAllDocuments(config, { logLevel: "silent" });
    if (!header || Array.isArray(header) || !("toJS" in header)) return new Set();
    const spec = (header.toJS() as { spec?: { inputs?: unknown } } | null)?.spec;
    return new Set(spec?.inputs && typeof spec.inputs === "object" ? Object.keys(spec.inputs) : []);
  } catch {
    return new Set();
  }
}

/** What the pipeline gets for one run of a job: inputs where the configuration declares both of Inkwell's, else variables. */
export function pipelineParameters(config: string | null, run: { jobId: string; runAttempt: number; publicUrl: string }): PipelineParameters {
  const declared = declaredInputs(config);
  if (declared.has(PIPELINE_INPUTS.jobId) && declared.has(PIPELINE_INPUTS.runAttempt)) {
    return { inputs: { [PIPELINE_INPUTS.jobId]: run.jobId, [PIPELINE_INPUTS.runAttempt]: String(run.runAttempt) } };
  }
  return { variables: { INKWELL_JOB_ID: run.jobId, INKWELL_RUN_ATTEMPT: String(run.runAttempt), INKWELL_URL: run.publicUrl } };
}

/** GitLab's answer when the project lets no one (or not the token's role) set pipeline variables. */
export const refusesPipelineVariables = (message: string | null) => /insufficient permissions to set pipeline variables/i.test(message ?? "");

/** The header and include a docs project's .gitlab-ci.yml needs so that Inkwell's runs arrive as pipeline inputs (the Setup page and docs/gitlab.md show it). */
export function ciConfigWithInputs(component: string, inputs: Record<string, string>): string {
  const given = Object.entries(inputs).map(([name, value]) => `      ${name}: ${value}`);
  return [
    "spec:",
    "  inputs:",
    `    ${PIPELINE_INPUTS.jobId}:`,
    '      default: ""',
    `    ${PIPELINE_INPUTS.runAttempt}:`,
    '      default: ""',
    "---",
    "include:",
    `  - component: ${component}`,
    "    inputs:",
    ...given,
    `      job-id: $[[ inputs.${PIPELINE_INPUTS.jobId} ]]`,
    `      run-attempt: $[[ inputs.${PIPELINE_INPUTS.runAttempt} ]]`,
    "",
  ].join("\n");
}
