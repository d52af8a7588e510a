import type { ClaimRequest, ClaimResponse, HeartbeatRequest, HeartbeatResponse, ReportRequest, TranscriptRequest } from "../shared/runner-schemas.js";
import type { AgentJob } from "../shared/api-schemas.js";
import { withoutTrailingSlashes } from "../shared/trailing-slashes.js";

/** An answer from Inkwell that retrying will not change (4xx), with its message. */
export class InkwellRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface RunnerClientOptions {
  /** The server's PUBLIC_URL; also the audience of the OIDC token. */
  baseUrl: string;
  /** A GitHub Actions OIDC token for `audience` (core.getIDToken in the Action). */
  idToken: (audience: string) => Promise<string>;
  fetch?: typeof fetch;
  attempts?: number;
  backoffMs?: number;
}

/**
 * The Action's side of the runner protocol. Every call carries a fresh OIDC token; network
 * errors, 429 and 5xx are retried with backoff, other answers are final.
 */
export class RunnerClient {
  readonly #fetch: typeof fetch;
  readonly #attempts: number;
  readonly #backoffMs: number;
  readonly #baseUrl: string;

  constructor(private readonly options: RunnerClientOptions) {
    this.#fetch = options.fetch ?? fetch;
    this.#attempts = options.attempts ?? 5;
    this.#backoffMs = options.backoffMs ?? 1_000;
    this.#baseUrl = withoutTrailingSlashes(options.baseUrl);
  }

  claim(request: ClaimRequest): Promise<ClaimResponse> {
    return this.#post("claim", request);
  }

  heartbeat(request: HeartbeatRequest): Promise<HeartbeatResponse> {
    return this.#post("heartbeat", request);
  }

  transcript(request: TranscriptRequest): Promise<{ stored: boolean }> {
    return this.#post("transcript", request);
  }

  report(request: ReportRequest): Promise<AgentJob> {
    return this.#post("report", request);
  }

  async #post<T>(endpoint: string, body: unknown): Promise<T> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= this.#attempts; attempt++) {
      try {
        const token = await this.options.idToken(this.#baseUrl);
        const response = await this.#fetch(`${this.#baseUrl}/v1/runner/${endpoint}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        if (response.ok) return JSON.parse(text) as T;
        const message = (() => {
          try {
            return (JSON.parse(text) as { error?: string }).error ?? text;
          } catch {
            return text;
          }
        })();
        if (response.status !== 429 && response.status < 500) throw new InkwellRefused(response.status, `Inkwell refused ${endpoint} (${response.status}): ${message}`);
        lastError = new Error(`Inkwell answered ${endpoint} with ${response.status}: ${message}`);
      } catch (error) {
        if (error instanceof InkwellRefused) throw error;
        lastError = error;
      }
      if (attempt < this.#attempts) await new Promise((resolve) => setTimeout(resolve, this.#backoffMs * 2 ** (attempt - 1)));
    }
    throw new Error(`Could not reach Inkwell at ${this.#baseUrl} for ${endpoint} after ${this.#attempts} attempts: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
  }
}
