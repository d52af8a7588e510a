import { errors, jwtVerify, type JWTPayload } from "jose";
import { UnauthenticatedError, UpstreamError } from "../../domain/errors.js";
import { gitLabConnectionByGitLabId, gitLabRepoName } from "../../domain/gitlab-connections.js";
import type { RunnerCaller } from "../../domain/jobs/runs.js";
import { KeysUnavailableError, OidcKeys } from "../oidc-keys.js";
import type { Queryable } from "../../store/db.js";

/** Who a GitLab CI ID token says it is, once verified: the connected project and the pipeline that runs. */
export interface GitLabRunnerIdentity extends RunnerCaller {
  pipelineId: number;
  jobId: number | null;
}

/** GitLab signs ID tokens with RS256 (its OpenID configuration's only id_token_signing_alg). */
const ALGORITHM = "RS256";

/** Pipelines Inkwell starts: through the pipeline API, or a trigger token on instances set up that way. */
const DISPATCHED_SOURCES = new Set(["api", "trigger"]);

const unauthorized = (why: string) => new UnauthenticatedError(`Invalid runner token: ${why}`, "runner");

/**
 * Verifies GitLab CI ID tokens (`id_tokens:` with `aud` = PUBLIC_URL): only of instances a project
 * is connected to (the caller checks the issuer first), signature against that instance's keys
 * (its discovery document's jwks_uri, /oauth/discovery/keys; cached per instance, `oidc-keys.ts`),
 * audience, expiry, and the claims that say which run this is: a connected project (project_id and
 * project_path), a pipeline started through the API on a branch.
 */
export class GitLabIdTokenVerifier {
  readonly #keys = new Map<string, OidcKeys>();

  constructor(
    private readonly db: Queryable,
    private readonly audience: string,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly clock: () => number = Date.now,
  ) {}

  async verify(token: string, issuer: string, alg: string): Promise<GitLabRunnerIdentity> {
    if (alg !== ALGORITHM) throw unauthorized(`it is signed with ${alg}; GitLab CI ID tokens are ${ALGORITHM}`);
    let keys = this.#keys.get(issuer);
    if (!keys) this.#keys.set(issuer, (keys = new OidcKeys(issuer, this.fetchImpl, this.clock)));
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys.getKey, {
        issuer,
        audience: this.audience,
        algorithms: [ALGORITHM],
        clockTolerance: 30,
        currentDate: new Date(this.clock()),
        requiredClaims: ["exp", "iat", "project_id", "project_path", "pipeline_id", "pipeline_source", "ref_type"],
      }));
    } catch (error) {
      if (error instanceof KeysUnavailableError) {
        const seconds = Math.max(1, Math.ceil((error.retryAt - this.clock()) / 1000));
        throw new UpstreamError(`Cannot fetch the ID token signing keys of ${issuer} (${error.message}); try again in ${seconds} s`, "unavailable");
      }
      throw unauthorized(describe(error, this.audience));
    }
    const projectId = Number(payload.project_id);
    const connection = Number.isSafeInteger(projectId) ? await gitLabConnectionByGitLabId(this.db, issuer, projectId) : null;
    if (!connection) throw unauthorized(`its project (project_id ${String(payload.project_id)}) is not connected to this Inkwell`);
    if (String(payload.project_path).toLowerCase() !== connection.projectPath.toLowerCase()) {
      throw unauthorized(`its project_path ${String(payload.project_path)} is not the connected project's (${connection.projectPath}); reconnect a renamed project`);
    }
    if (!DISPATCHED_SOURCES.has(String(payload.pipeline_source))) {
      throw unauthorized(`its pipeline was started by ${String(payload.pipeline_source)}; only pipelines Inkwell starts (api, trigger) may run jobs`);
    }
    if (payload.ref_type !== "branch") throw unauthorized(`its pipeline runs on a ${String(payload.ref_type)}, not a branch`);
    const pipelineId = Number(payload.pipeline_id);
    if (!Number.isSafeInteger(pipelineId)) throw unauthorized("its pipeline_id is not a number");
    const jobId = Number(payload.job_id);
    return {
      repository: gitLabRepoName(connection.baseUrl, connection.projectPath),
      repositoryId: connection.gitlabProjectId,
      pipelineId,
      jobId: Number.isSafeInteger(jobId) ? jobId : null,
    };
  }
}

function describe(error: unknown, audience: string): string {
  if (error instanceof errors.JWTExpired) return "it has expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return `its audience is not ${audience} (set id_tokens: aud to this Inkwell's URL)`;
    if (error.claim === "iss") return "it was not issued by a connected GitLab instance";
    return `claim ${error.claim} is ${error.reason === "missing" ? "missing" : "invalid"}`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) return "its signature does not verify";
  return "it is not a valid JWT";
}
