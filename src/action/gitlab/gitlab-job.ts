import { z } from "zod";
import type { DispatchedRun } from "../dispatch-event.js";
import type { InputName } from "../inputs.js";
import type { RunnerEnvironment } from "../job-run-types.js";
import type { GitLabJobIdentity } from "./forge.js";

/**
 * The CI/CD variables a GitLab job that Inkwell started has: the pipeline variables Inkwell sent
 * (INKWELL_JOB_ID, INKWELL_RUN_ATTEMPT), the ID token the job asked for (`id_tokens`), and GitLab's
 * predefined ones.
 */
const gitlabJobSchema = z.object({
  INKWELL_JOB_ID: z.string().regex(/^[a-z0-9]{1,64}$/, "INKWELL_JOB_ID is not an Inkwell job id"),
  INKWELL_RUN_ATTEMPT: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, "INKWELL_RUN_ATTEMPT must be a whole number from 1")
    .optional()
    .transform((value) => Number(value ?? "1")),
  INKWELL_ID_TOKEN: z.string().min(1),
  CI_JOB_TOKEN: z.string().min(1),
  CI_PROJECT_DIR: z.string().min(1),
  CI_PROJECT_PATH: z.string().min(1),
  CI_PROJECT_URL: z.string().min(1),
  CI_SERVER_URL: z.string().min(1),
  CI_SERVER_HOST: z.string().min(1),
  CI_API_V4_URL: z.string().min(1),
  CI_PIPELINE_ID: z.string().regex(/^\d+$/).transform(Number),
  CI_PIPELINE_URL: z.string().optional(),
  CI_JOB_ID: z.string().regex(/^\d+$/).transform(Number).optional(),
  GITLAB_USER_NAME: z.string().optional(),
  GITLAB_USER_EMAIL: z.string().optional(),
});

export interface GitLabJob {
  dispatched: DispatchedRun;
  env: RunnerEnvironment;
  identity: GitLabJobIdentity;
  /** The job's ID token for Inkwell (audience: Inkwell's URL, set by `id_tokens` in the job). */
  idToken: string;
}

/** Why each missing variable is missing, with the fix. */
const MISSING: Partial<Record<keyof z.infer<typeof gitlabJobSchema>, string>> = {
  INKWELL_JOB_ID: "INKWELL_JOB_ID is unset: this pipeline was not started by Inkwell (the component's job runs only in pipelines Inkwell starts)",
  INKWELL_ID_TOKEN: "INKWELL_ID_TOKEN is unset: the job needs `id_tokens: { INKWELL_ID_TOKEN: { aud: <your Inkwell URL> } }` (the component sets it)",
  CI_JOB_TOKEN: "CI_JOB_TOKEN is unset: the job cannot push its branch",
};

/** The GitLab job as the runner needs it, or every problem with it (not in GitLab CI, not started by Inkwell, no ID token). */
export function readGitLabJob(env: NodeJS.ProcessEnv): { job: GitLabJob; problems: [] } | { job: null; problems: string[] } {
  const parsed = gitlabJobSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]) as keyof typeof MISSING;
      return env[name] === undefined || env[name] === "" ? (MISSING[name] ?? `${name} is unset: run this inside a GitLab CI/CD job`) : issue.message;
    });
    return { job: null, problems: [...new Set(problems)] };
  }
  const ci = parsed.data;
  return {
    problems: [],
    job: {
      dispatched: { jobId: ci.INKWELL_JOB_ID, runAttempt: ci.INKWELL_RUN_ATTEMPT },
      env: {
        workspace: ci.CI_PROJECT_DIR,
        repository: ci.CI_PROJECT_PATH,
        serverUrl: ci.CI_SERVER_URL,
        apiUrl: ci.CI_API_V4_URL,
        runId: ci.CI_PIPELINE_ID,
        runUrl: ci.CI_PIPELINE_URL || null,
        ...(ci.CI_JOB_ID ? { ciJobId: ci.CI_JOB_ID } : {}),
      },
      identity: {
        jobToken: ci.CI_JOB_TOKEN,
        projectUrl: ci.CI_PROJECT_URL,
        userName: ci.GITLAB_USER_NAME || null,
        userEmail: ci.GITLAB_USER_EMAIL || null,
        serverHost: ci.CI_SERVER_HOST,
      },
      idToken: ci.INKWELL_ID_TOKEN,
    },
  };
}

/** Inputs whose variable is not INKWELL_<NAME>: the model's key is not the CLI's INKWELL_API_KEY (an Inkwell key). */
const NAMED: Partial<Record<InputName, string>> = { "inkwell-url": "INKWELL_URL", "api-key": "INKWELL_MODEL_API_KEY" };

/**
 * The runner's inputs as CI/CD variables: INKWELL_ and the input's name in capitals with
 * underscores (INKWELL_MODEL, INKWELL_MAX_TURNS, …), INKWELL_URL and INKWELL_MODEL_API_KEY.
 * GitLab's variable names allow no dashes, so these are the names the component sets.
 */
export const gitlabInputVariable = (name: InputName) => NAMED[name] ?? `INKWELL_${name.toUpperCase().replaceAll("-", "_")}`;
