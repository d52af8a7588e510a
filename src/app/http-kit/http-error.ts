/**
 * An error raised by the HTTP layer itself (body too large, bad JSON, unknown route, CSRF): it
 * already knows its status. Domain code throws `DomainError`s instead (see `error-reply.ts`).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: { message: string; field?: string }[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
  }
}
