import { describe, expect, it } from "vitest";
import {
  ConflictError,
  ForbiddenError,
  IdempotencyKeyReusedError,
  InvalidInputError,
  JobArchivedError,
  NotConfiguredError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  UpstreamError,
} from "../../../../src/app/domain/errors.js";
import { asHttpError } from "../../../../src/app/http-kit/error-reply.js";
import { HttpError } from "../../../../src/app/http-kit/http-error.js";

describe("domain errors at the HTTP edge", () => {
  it.each([
    [new NotFoundError("Job"), 404, "Job not found", undefined],
    [new ConflictError("already claimed"), 409, "already claimed", undefined],
    [new JobArchivedError("archived"), 409, "archived", undefined],
    [new RateLimitedError("slow down", 17), 429, "slow down", { "Retry-After": "17" }],
    [new UnauthenticatedError("no key", "api-key"), 401, "no key", { "WWW-Authenticate": 'Bearer realm="inkwell"' }],
    [new UnauthenticatedError("no token", "operator"), 401, "no token", { "WWW-Authenticate": 'Bearer realm="inkwell-admin"' }],
    [new UnauthenticatedError("bad OIDC token", "runner"), 401, "bad OIDC token", undefined],
    [new ForbiddenError("another project"), 403, "another project", undefined],
    [new UpstreamError("GitHub is down"), 502, "GitHub is down", undefined],
    [new UpstreamError("issuer keys", "unavailable"), 503, "issuer keys", undefined],
    [new NotConfiguredError("no App"), 503, "no App", undefined],
  ])("%s → %i", (error, status, message, headers) => {
    const http = asHttpError(error);
    expect(http).toMatchObject({ status, message });
    expect(http?.headers).toEqual(headers);
  });

  it("names each invalid field in the details", () => {
    const http = asHttpError(new InvalidInputError("bad key", [{ field: "Idempotency-Key", message: "use a new key" }]));
    expect(http?.status).toBe(400);
    expect(http?.details).toEqual([{ message: "Idempotency-Key: use a new key", field: "Idempotency-Key" }]);
  });

  it("answers a reused Idempotency-Key with 422, as the IETF draft says, still naming the field", () => {
    const http = asHttpError(new IdempotencyKeyReusedError("reused", [{ field: "Idempotency-Key", message: "use a new key" }]));
    expect(http?.status).toBe(422);
    expect(http?.details).toEqual([{ message: "Idempotency-Key: use a new key", field: "Idempotency-Key" }]);
  });

  it("passes the HTTP layer's own errors through, and leaves anything else (a bug) to the caller", () => {
    const own = new HttpError(413, "too large");
    expect(asHttpError(own)).toBe(own);
    expect(asHttpError(new Error("boom"))).toBeNull();
    expect(asHttpError("boom")).toBeNull();
  });
});
