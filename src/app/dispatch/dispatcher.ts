/** What a dispatcher needs to start one run of a job in the project's repository. */
export interface DispatchRequest {
  jobId: string;
  runAttempt: number;
  projectId: string;
  /** The forge the job's repository is on: the seam's choice of dispatcher (ForgeDispatcher). */
  forge: "github" | "gitlab";
  /** The job's base branch; null = the repository's default. */
  baseRef: string | null;
  repoFullName: string;
  installationId: number | null;
  installationSuspended: boolean;
}

export type DispatchOutcome =
  /** `detail`: what the forge started when it names it (GitLab: `pipeline <id>`), kept in the job's history. */
  | { ok: true; detail?: string }
  /** `retryable` failures are tried again with backoff; the others fail the job at once with `error`. */
  | { ok: false; retryable: boolean; error: string };

/** Starts the Inkwell Action in the job's repository (GitHub: `repository_dispatch`). */
export interface Dispatcher {
  dispatch(request: DispatchRequest): Promise<DispatchOutcome>;
}

/** Used when the server has no GitHub App credentials: every job fails with what to do about it. */
export class NoAppDispatcher implements Dispatcher {
  constructor(private readonly setupUrl: string) {}

  async dispatch(request: DispatchRequest): Promise<DispatchOutcome> {
    return {
      ok: false,
      retryable: false,
      error:
        `No GitHub App is configured on this Inkwell server, so the job cannot run in ${request.repoFullName}. ` +
        `Register it at ${this.setupUrl}, restart Inkwell, install the App on ${request.repoFullName}, ` +
        `then send a follow-up message to this job to run it.`,
    };
  }
}

/**
 * The forge seam for starting runs (docs/architecture.md, "Forges"): each job is dispatched by its
 * repository's forge's dispatcher, GitHub's `repository_dispatch` or GitLab's pipeline API.
 */
export class ForgeDispatcher implements Dispatcher {
  constructor(private readonly byForge: Record<DispatchRequest["forge"], Dispatcher>) {}

  dispatch(request: DispatchRequest): Promise<DispatchOutcome> {
    return this.byForge[request.forge].dispatch(request);
  }
}
