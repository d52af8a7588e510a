import { z } from "zod";
import { HttpError } from "../http/http-error.js";
import type { JsonSchema } from "../http/openapi-parts.js";
import { unknownFields } from "../http/unknown-fields.js";

type ObjectSchema = JsonSchema & { type: "object" };

/**
 * A zod schema as a self-contained JSON Schema whose root is an object, as MCP asks of a tool's
 * schemas: a schema registered with an id comes out as a `$ref` into `$defs`, so the root is inlined
 * (its definition stays in `$defs` for references inside it).
 */
export function objectJsonSchema(schema: z.ZodType, io: "input" | "output"): ObjectSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  const root = typeof json.$ref === "string" ? (json.$defs as Record<string, JsonSchema>)[json.$ref.replace("#/$defs/", "")] : json;
  if (root?.type !== "object") throw new Error(`not an object schema: ${JSON.stringify(json).slice(0, 200)}`);
  const { $ref: __, ...rest } = json;
  return { ...rest, ...root } as ObjectSchema;
}

/**
 * The input of a tool that takes some of a REST report's query parameters: typed as the query's
 * values are read (integers, enums, dates), every one optional (the REST defaults apply), no others.
 */
export function queryToolInput(query: z.ZodObject, fields: readonly string[]): ObjectSchema {
  const picked = Object.fromEntries(fields.map((field) => [field, query.shape[field] as z.ZodType]));
  const json = objectJsonSchema(z.object(picked), "output");
  delete json.required;
  return json;
}

/**
 * A tool's arguments as the REST query string would carry them, refused with the REST API's
 * message when one is not among `fields` (naming the one most likely meant): then the REST
 * schema validates them, with its defaults, bounds and messages.
 */
export function queryOfArguments(args: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  refuseUnknownArguments(z.object(Object.fromEntries(fields.map((field) => [field, z.unknown()]))), args);
  return Object.fromEntries(Object.entries(args).map(([name, value]) => [name, typeof value === "number" || typeof value === "boolean" ? String(value) : value]));
}

/** A 400 naming each argument the schema does not know, with the name most likely meant. */
export function refuseUnknownArguments(schema: z.ZodType, args: Record<string, unknown>): void {
  const unknown = unknownFields(schema, args);
  if (unknown.length === 0) return;
  const details = unknown.map(({ field, suggestion }) => ({ field, message: `${field}: unknown argument${suggestion ? `; did you mean '${suggestion}'?` : ""}` }));
  throw new HttpError(400, `Unknown argument${unknown.length > 1 ? "s" : ""}: ${details.map((d) => d.message).join("; ")}`, details);
}
