import {
  ConflictError,
  DomainError,
  ForbiddenError,
  IdempotencyKeyReusedError,
  InvalidInputError,
  MissingScopeError,
  NotConfiguredError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  UpstreamError,
} from "../domain/errors.js";
import { HttpError } from "./http-error.js";

const CHALLENGES: Record<UnauthenticatedError["scheme"], string | null> = {
  "api-key": 'Bearer realm="inkwell"',
  operator: 'Bearer realm="inkwell-admin"',
  runner: null,
};

/**
 * The one place a domain error becomes an HTTP status and headers (the JSON API and the dashboard's
 * error pages both ask here). Anything that is neither a domain nor an HTTP error is a bug: null.
 */
export function asHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (!(error instanceof DomainError)) return null;
  if (error instanceof NotFoundError) return new HttpError(404, error.message);
  if (error instanceof InvalidInputError) {
    const details = error.problems.length > 0 ? error.problems.map((p) => ({ message: `${p.field}: ${p.message}`, field: p.field })) : undefined;
    return new HttpError(error instanceof IdempotencyKeyReusedError ? 422 : 400, error.message, details);
  }
  if (error instanceof ConflictError) return new HttpError(409, error.message);
  if (error instanceof RateLimitedError) return new HttpError(429, error.message, undefined, { "Retry-After": String(error.retryAfterSeconds) });
  if (error instanceof UnauthenticatedError) {
    const challenge = CHALLENGES[error.scheme];
    return new HttpError(401, error.message, undefined, challenge ? { "WWW-Authenticate": challenge } : undefined);
  }
  if (error instanceof MissingScopeError) return new HttpError(403, error.message, [{ message: `scope: ${error.scope} needed`, field: "scope" }]);
  if (error instanceof ForbiddenError) return new HttpError(403, error.message);
  if (error instanceof UpstreamError) return new HttpError(error.kind === "unavailable" ? 503 : 502, error.message);
  if (error instanceof NotConfiguredError) return new HttpError(503, error.message);
  return null;
}
