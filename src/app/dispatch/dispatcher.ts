/** What a dispatcher needs to start one run of a job in the project's repository. */
export interface DispatchRequest {
  jobId: string;
  runAttempt: number;
  projectId: string;
  /** The forge the job's repository is on: the seam's choice of dispatcher (`dispatcherOf` in forges/forge.ts). */
  forge: "github" | "gitlab";
  /** The job's base branch; null = the repository's default. */
  baseRef: string | null;
  repoName: string;
  installationId: number | null;
  installationSuspended: boolean;
}

export type DispatchOutcome =
  /** `detail`: what the forge started when it names it (GitLab: `pipeline <id>`), kept in the job's history. */
  | { ok: true; detail?: string }
  /** `retryable` failures are tried again with backoff; the others fail the job at once with `error`. */
  | { ok: false; retryable: boolean; error: string };

/** Starts the Inkwell Action in the job's repository (each forge's `dispatcher.ts`). */
export interface Dispatcher {
  dispatch(request: DispatchRequest): Promise<DispatchOutcome>;
}
