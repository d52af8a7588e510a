import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import { fieldIssues } from "../../shared/zod-issues.js";
import { isStorableText, storable, STORABLE_TEXT_ERROR } from "../../shared/stored-values.js";
import { HttpError } from "./http-error.js";
import { isClosed, unknownFields } from "./unknown-fields.js";

/** What a route does with text storage cannot hold (docs/api.md, "Text"). */
export interface TextRules {
  /**
   * Fields whose text comes from elsewhere and whose format has no use for NUL (a robots.txt as
   * served, a runner's transcript): made storable (NUL dropped, a lone surrogate replaced by U+FFFD)
   * rather than refused. Dotted paths; `*` for the whole body.
   */
  storableAt?: readonly string[];
  /** An array validated item by item (a hit batch): an item's text is its own schema's to refuse, as that item's rejection. */
  itemsAlone?: string;
}

/**
 * Reads a JSON body of at most `maxBytes`: 413 past the cap, 400 for an empty body or bad JSON.
 * The content type is not insisted on (curl -d sends a form type); the body must parse as JSON.
 * No string in it (field names included) may hold what storage cannot (U+0000, a lone
 * surrogate): 400 naming the field, unless `rules` says the field's text is made storable.
 */
export async function readJson(req: IncomingMessage, maxBytes: number, rules: TextRules = {}): Promise<unknown> {
  const body = await readBody(req, maxBytes);
  if (body.length === 0) throw new HttpError(400, "Request body is empty: send a JSON object", [{ message: "body: required" }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    throw new HttpError(400, "Request body is not valid JSON", [{ message: "body: invalid JSON" }]);
  }
  return storableJson(parsed, rules);
}

/**
 * The value with every string checked (or made storable where the rules say), by its dotted path.
 * Iterative, not recursive: a body may nest as deep as JSON.parse allows (tens of thousands of
 * levels) and is still answered with the schema's 400, never a stack overflow.
 */
function storableJson(root: unknown, rules: TextRules): unknown {
  const holder: Record<string, unknown> = { value: root };
  const stack: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number; at: string }> = [{ parent: holder, key: "value", at: "" }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { parent, key, at } = next;
    const value = (parent as Record<string | number, unknown>)[key];
    if (typeof value === "string") {
      if (isStorableText(value)) continue;
      if (!rules.storableAt?.some((field) => field === "*" || field === at || at.startsWith(`${field}.`))) throw unstorable(at || "body");
      (parent as Record<string | number, unknown>)[key] = storable(value);
    } else if (Array.isArray(value)) {
      if (at !== "" && at === rules.itemsAlone) continue;
      value.forEach((_, index) => stack.push({ parent: value, key: index, at: `${at}${at ? "." : ""}${index}` }));
    } else if (typeof value === "object" && value !== null) {
      for (const name of Object.keys(value)) {
        if (!isStorableText(name)) throw unstorable(`${at || "body"}: a field name`);
        stack.push({ parent: value as Record<string, unknown>, key: name, at: `${at}${at ? "." : ""}${name}` });
      }
    }
  }
  return holder.value;
}

/** A field's dotted path as a refusal names it: the last 200 characters of a deep one. */
const named = (field: string) => (field.length > 200 ? `…${field.slice(-200)}` : field);
const unstorable = (path: string, field = named(path)) => new HttpError(400, `Invalid request: ${field}: ${STORABLE_TEXT_ERROR}`, [{ field, message: `${field}: ${STORABLE_TEXT_ERROR}` }]);

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
  new HttpError(413, `Request body is larger than this route takes: at most ${sizeOf(maxBytes)}`, [{ message: `body: at most ${maxBytes} bytes` }], { Connection: "close" });

/** A byte count as the manual writes it (KiB or MiB when whole), with the exact number. */
const sizeOf = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB (${bytes} bytes)` : bytes % 1024 === 0 ? `${bytes / 1024} KiB (${bytes} bytes)` : `${bytes} bytes`);

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
  const value = Array.isArray(raw) ? raw.join(",") : raw;
  if (!isStorableText(value)) throw unstorable(`${name} header`);
  const result = schema.safeParse(value);
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
    if (!isStorableText(key)) throw unstorable("a query parameter's name");
    if (!isStorableText(value)) throw unstorable(key);
    if (key in out) throw new HttpError(400, `Query parameter '${key}' is given more than once`, [{ message: `${key}: repeated` }]);
    out[key] = value;
  }
  return out;
}
