import { z } from "zod";
import { errorSchema } from "../../shared/api-schemas.js";

// The pieces every part of the OpenAPI document is built from.

export type JsonSchema = Record<string, unknown>;
export const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${z.globalRegistry.get(schema)?.id as string}` });

/** Every schema registered with a `meta({ id })`, each referring to the others by $ref. */
export function components(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    io: "input",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  // The registry stamps each schema with `$id`/`id` = its own reference; JSON Schema 2020-12 forbids a
  // fragment in `$id`, and the component's key already names it.
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
    delete schema.id;
  }
  return schemas;
}

/** An inline JSON Schema (no `$schema`: the document's dialect applies). */
export function plainSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

export function queryParameters(schema: z.ZodObject) {
  return Object.entries(schema.shape).map(([name, field]) => {
    // Query values arrive as strings; the output side shows what they mean (integer, enum, date).
    const { description, ...rest } = plainSchema(field as z.ZodType, "output");
    return { name, in: "query", required: false, ...(description ? { description } : {}), schema: rest };
  });
}

export const pathParam = (name: string, description: string) => ({ name, in: "path", required: true, description, schema: { type: "string", pattern: "^[a-z0-9]{1,64}$" } });
export const json = (schema: z.ZodType) => ({ content: { "application/json": { schema: ref(schema) } } });
/** A list's body: `{ [key]: schema[] }`. */
export const jsonList = (key: string, schema: z.ZodType) => ({ content: { "application/json": { schema: { type: "object", properties: { [key]: { type: "array", items: ref(schema) } } } } } });
export const errorResponse = (description: string) => ({ description, ...json(errorSchema) });
/** A report's 200: its JSON, or (`output=csv`, or an Accept header preferring text/csv) its rows as CSV, whose first line is `header` (http-kit/csv.ts). */
export const jsonOrCsv = (schema: z.ZodType, header: string) => ({
  content: {
    ...json(schema).content,
    "text/csv": {
      schema: {
        type: "string",
        pattern: `^${header}\\r\\n`,
        description: `RFC 4180 with CRLF line ends, UTF-8: the header line \`${header}\`, then one line per row in the report's order (every row of the range unless limit or offset is given), no totals. Text starting with = + - @ tab or CR is prefixed with '.`,
      },
    },
  },
  headers: { "Content-Disposition": { description: "CSV only: `attachment; filename=\"<report>-<projectId>-<dateFrom|start>-<dateTo|end>.csv\"`.", schema: { type: "string" } } },
});
export const ERR = {
  400: errorResponse("Invalid input; `details` names each field."),
  401: errorResponse("Missing, malformed, unknown or revoked key."),
  403: errorResponse("The key belongs to another project (the message names it)."),
  404: errorResponse("Not found."),
  409: errorResponse("The job is archived."),
  413: errorResponse("Request body too large."),
  503: errorResponse("The server has no GitHub App or PUBLIC_URL configured, so runners cannot use it."),
  429: { ...errorResponse("Rate limit reached."), headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds until a slot frees up." } } },
};
export const projectParam = pathParam("projectId", "The project id.");
export const jobParam = pathParam("id", "The job id.");
export const projectKey = [{ projectKey: [] }];
export const operator = [{ operatorToken: [] }];
