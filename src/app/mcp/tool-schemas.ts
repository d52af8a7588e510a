import { z } from "zod";
import { invalid, refuseUnknownFields } from "../http-kit/body.js";
import type { JsonSchema } from "../http/openapi-parts.js";

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
 * A tool's arguments validated by a REST schema (its bounds, defaults and messages), each problem
 * named by its argument; an argument the schema does not know is refused with the one most likely meant.
 */
export function validArguments<S extends z.ZodType>(schema: S, args: Record<string, unknown>): z.output<S> {
  refuseUnknownFields(schema, args, "argument");
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  throw invalid(result.error, "arguments", "arguments", args);
}

/**
 * The arguments of a tool that takes some of a REST report's query parameters, read as that query
 * string would carry them (numbers as their digits) and validated by the report's own query schema;
 * one outside `fields` is refused even where the REST query would take it.
 */
export function validQueryArguments<S extends z.ZodType>(query: S, fields: readonly string[], args: Record<string, unknown>): z.output<S> {
  refuseUnknownFields(z.object(Object.fromEntries(fields.map((field) => [field, z.unknown()]))), args, "argument");
  return validArguments(query, Object.fromEntries(Object.entries(args).map(([name, value]) => [name, typeof value === "number" || typeof value === "boolean" ? String(value) : value])));
}
