import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import { fieldIssues } from "../../shared/zod-issues.js";
import { HttpError } from "./http-error.js";
import { isClosed, unknownFields } from "./unknown-fields.js";

/**
 * Reads a JSON body of at most `maxBytes`: 413 past the cap, 400 for an empty body or bad JSON.
 * The content type is not insisted on (curl -d sends a form type); the body must parse as JSON.
 */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const body = await readBody(req, maxBytes);
  if (body.length === 0) throw new HttpError(400, "Request body is empty: send a JSON object", [{ message: "body: required" }]);
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new HttpError(400, "Request body is not valid JSON", [{ message: "body: invalid JSON" }]);
  }
}

/** The whole body, at most `maxBytes` (413 past the cap, before reading when Content-Length says so). */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  refuseDeclaredOversize(req, maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** 413 when the request's Content-Length is past the cap: answered without reading a byte of the body. */
export function refuseDeclaredOversize(req: IncomingMessage, maxBytes: number): void {
  if (Number(req.headers["content-length"] ?? NaN) > maxBytes) throw tooLarge(maxBytes);
}

const tooLarge = (maxBytes: number) =>
  new HttpError(413, `Request body is larger than ${maxBytes} bytes`, undefined, { Connection: "close" });

/**
 * Validates input with a zod schema; the 400 names every offending field. Query parameters the
 * schema does not know are refused (a typo must not silently widen a report), and so are the
 * fields of a body whose schema is strict (the operator API's: `isClosed`, which the OpenAPI
 * document shows as `additionalProperties: false`); other bodies ignore them (the seed's job
 * bodies keep their contract).
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, where: "body" | "query"): z.output<S> {
  if (where === "body" && (typeof input !== "object" || input === null || Array.isArray(input))) {
    throw new HttpError(400, "Request body must be a JSON object", [{ message: "body: expected an object" }]);
  }
  if (where === "query" || isClosed(schema)) refuseUnknownFields(schema, input, where === "query" ? "query parameter" : "field");
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalid(result.error, where, where === "body" ? "request body" : "query parameters", input);
}

/** A 400 naming each name in `input` that `schema` does not know (a `kind`: field, query parameter, argument), with the one most likely meant. */
export function refuseUnknownFields(schema: z.ZodType, input: unknown, kind: string): void {
  const unknown = unknownFields(schema, input);
  if (unknown.length === 0) return;
  const details = unknown.map(({ field, suggestion }) => ({ field, message: `${field}: unknown ${kind}${suggestion ? `; did you mean '${suggestion}'?` : ""}` }));
  throw new HttpError(400, `Unknown ${kind}${unknown.length > 1 ? "s" : ""}: ${details.map((d) => d.message).join("; ")}`, details);
}

/** A request header validated by `schema`; undefined when the request does not send it. */
export function validHeader<S extends z.ZodType>(schema: S, req: IncomingMessage, name: string): z.output<S> | undefined {
  const raw = req.headers[name.toLowerCase()];
  if (raw === undefined) return undefined;
  const result = schema.safeParse(Array.isArray(raw) ? raw.join(",") : raw);
  if (result.success) return result.data;
  throw invalid(result.error, name, `${name} header`);
}

/** The 400 for a failed parse: each issue names its field (`whole` when it is about the input itself). */
export function invalid(error: z.ZodError, whole: string, what: string, input?: unknown): HttpError {
  const details = fieldIssues(error, whole, input).map(({ field, message }) => ({ message: `${field}: ${message}`, field }));
  return new HttpError(400, `Invalid ${what}: ${details.map((d) => d.message).join("; ")}`, details);
}

/** A query string as a plain object; a repeated parameter is refused rather than silently picked. */
export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (key in out) throw new HttpError(400, `Query parameter '${key}' is given more than once`, [{ message: `${key}: repeated` }]);
    out[key] = value;
  }
  return out;
}
