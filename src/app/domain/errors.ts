/**
 * What went wrong, in the domain's words. The domain never chooses an HTTP status: the edge
 * (`http-kit/error-reply.ts`) maps each kind to one, and webhook and task code catch the kind they
 * expect. Messages are written for the person who sent the request and are safe to show them.
 */
export abstract class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The thing does not exist, or is not visible to the caller (the two are never told apart). */
export class NotFoundError extends DomainError {
  constructor(readonly what: string, message = `${what} not found`) {
    super(message);
  }
}

export const notFound = (what: string) => new NotFoundError(what);

export interface FieldProblem {
  /** The input field, as a client spells it (`prompt`, `Idempotency-Key`, `hits.3.path`). */
  field: string;
  message: string;
}

/** The input is well-formed but not acceptable; names each offending field. */
export class InvalidInputError extends DomainError {
  constructor(message: string, readonly problems: FieldProblem[] = []) {
    super(message);
  }
}

/**
 * An Idempotency-Key sent again with a different request: well-formed, and refused because of what
 * the key already stands for (the IETF Idempotency-Key draft answers 422).
 */
export class IdempotencyKeyReusedError extends InvalidInputError {}

/** The request is valid but the current state does not allow it (already exists, already claimed…). */
export class ConflictError extends DomainError {}

/** A follow-up for a job whose pull request was merged or closed: the job takes no more messages. */
export class JobArchivedError extends ConflictError {}

/** The project used its allowance of job creations and messages; it frees up after `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
  }
}

/** No credential, or one that proves nothing. `scheme` names what to send. */
export class UnauthenticatedError extends DomainError {
  constructor(message: string, readonly scheme: "api-key" | "operator" | "runner") {
    super(message);
  }
}

/** The caller is known but may not do this. */
export class ForbiddenError extends DomainError {}

/** The key is the project's, but its scopes do not cover this: `scope` is the one it needs. */
export class MissingScopeError extends ForbiddenError {
  constructor(message: string, readonly scope: string) {
    super(message);
  }
}

/** Something this server depends on (GitHub, the OIDC issuer) did not answer usefully; trying again may work. */
export class UpstreamError extends DomainError {
  constructor(message: string, readonly kind: "unavailable" | "bad-gateway" = "bad-gateway") {
    super(message);
  }
}

/** The server is not set up for this (no GitHub App, no PUBLIC_URL): the message says what to configure. */
export class NotConfiguredError extends DomainError {}
