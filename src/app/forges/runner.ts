import { z } from "zod";
import type { ForgeName } from "../../shared/forge-words.js";
import type { ClaimResponse, ReportRequest } from "../../shared/runner-schemas.js";
import { UnauthenticatedError } from "../domain/errors.js";
import type { ClaimResult, RunnerCaller } from "../domain/jobs/runs.js";

/**
 * The runner's side of a forge (docs/architecture.md, "Forges"): who a runner's token says it is,
 * what a claim answers, and what a report needs of the forge before it is recorded. The runner
 * route (`http/routes/runner.ts`) picks the forge by the token's issuer and speaks to it only here.
 */

/** The alg and iss a compact JWS says it has, unverified. */
export interface ClaimedToken {
  alg: string;
  iss: string;
}

/** A verified runner: its repository, and the forge run the token was minted for when the token names one (a claim must be of that run). */
export type VerifiedRunner = RunnerCaller & { runId?: number };

export interface RunnerForge {
  readonly forge: ForgeName;
  /** What this forge's runners send, for the 401 that asks for a token ("the GitLab job's CI ID token"). */
  readonly tokenName: string;
  /** Who issues this forge's tokens, for the 401 that says whose a token is not ("a connected GitLab instance"). */
  readonly issuerName: string;
  /**
   * Whether the token is this forge's to verify: `issuer`, its issuer is one this forge knows;
   * `fallback`, it takes a token no forge knows to say what is wrong with it (GitHub's, when its
   * App can verify); null, not this forge's.
   */
  recognizes(claimed: ClaimedToken | null): Promise<"issuer" | "fallback" | null>;
  /** Verifies the token; throws UnauthenticatedError (or NotConfiguredError, UpstreamError) when it cannot. */
  verify(token: string, claimed: ClaimedToken | null): Promise<VerifiedRunner>;
  /** The claim's answer beyond the job's context: the repository as the runner names it, what it pushes with, what it may read. */
  claimAnswer(claimed: ClaimResult, base: Pick<ClaimResponse, "serviceVersion" | "jobPageUrl">, log: { warn(fields: object, message: string): void }): Promise<ClaimResponse>;
  /** A report as the job's commands take it (GitLab opens or updates the merge request here). */
  beforeReport(report: ReportRequest, who: VerifiedRunner): Promise<ReportRequest>;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const headerSchema = z.object({ alg: z.string() });
const payloadSchema = z.object({ iss: z.string() });

/** The alg and iss a compact JWS says it has, unverified; null when it is not one (the runner route picks the forge by the issuer). */
export function claimedHeaderAndIssuer(token: string): ClaimedToken | null {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null;
  const header = headerSchema.safeParse(decodeJson(parts[0]!));
  const payload = payloadSchema.safeParse(decodeJson(parts[1]!));
  return header.success && payload.success ? { alg: header.data.alg, iss: payload.data.iss } : null;
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

/** What a request without a token is told, naming every forge's token. */
export const missingTokenError = (runners: readonly RunnerForge[]) =>
  new UnauthenticatedError(`Missing runner token: send 'Authorization: Bearer <${runners.map((runner) => runner.tokenName).join(" or ")}>'`, "runner");

/**
 * The forge whose runner sent the token: one that knows its issuer, else one that takes any token
 * to say what is wrong with it; none is a 401 that says what the token is not.
 */
export async function runnerForgeOf(runners: readonly RunnerForge[], claimed: ClaimedToken | null): Promise<RunnerForge> {
  let fallback: RunnerForge | undefined;
  for (const runner of runners) {
    const recognized = await runner.recognizes(claimed);
    if (recognized === "issuer") return runner;
    if (recognized === "fallback") fallback ??= runner;
  }
  if (fallback) return fallback;
  const why = claimed
    ? `it was issued neither by ${runners.map((runner) => runner.issuerName).join(" nor by ")}`
    : "it is not a JWT (three base64url parts: a JSON header with alg, a JSON payload with iss, a signature)";
  throw new UnauthenticatedError(`Invalid runner token: ${why}`, "runner");
}
