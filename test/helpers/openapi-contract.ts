import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/** The published document as a contract: schemas compiled by a standard JSON Schema 2020-12 validator. */
export interface OpenApiContract {
  doc: any;
  /** Every operation: method, path template, the operation object. */
  operations: Array<{ method: string; path: string; operation: any }>;
  /** A compiled validator for the schema at a JSON pointer into the document. */
  validatorAt(pointer: string): ValidateFunction;
  /** Problems with a response against what the document says for this operation and status; [] when it matches. */
  responseProblems(method: string, path: string, status: number, contentType: string | null, body: unknown): string[];
}

const DOC_ID = "https://inkwell.invalid/openapi.json";

/** A path or media type as one JSON Pointer segment (RFC 6901: `~` → `~0`, `/` → `~1`). */
export const pointerSegment = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/** The node of `doc` at a JSON Pointer. */
export const nodeAt = (doc: any, pointer: string): any =>
  pointer.split("/").slice(1).reduce((node, key) => node[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
const METHODS = new Set(["get", "post", "put", "patch", "delete", "options", "head"]);

export function openApiContract(doc: any): OpenApiContract {
  // strict: an unknown keyword or a malformed schema is an error, not silently ignored.
  const ajv = new Ajv2020.default({ strict: true, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  // OpenAPI keywords that are not JSON Schema: known to the document, not to the dialect.
  ajv.addKeyword({ keyword: "components" });
  ajv.addKeyword({ keyword: "paths" });
  ajv.addKeyword({ keyword: "webhooks" });
  // Inkwell's annotation for a time that may not be in the future (a robots.txt version's effectiveAt): the server checks it.
  ajv.addKeyword({ keyword: "x-not-after" });
  for (const keyword of ["openapi", "info", "servers", "security", "operationId", "summary", "parameters", "requestBody", "responses", "content", "in", "name", "required", "headers"]) {
    if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  }
  ajv.addSchema({ ...doc, $id: DOC_ID });

  const cache = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = cache.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
      cache.set(pointer, validate);
    }
    return validate;
  };

  const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({ method, path, operation })),
  );

  return {
    doc,
    operations,
    validatorAt,
    responseProblems(method, path, status, contentType, body) {
      const operation = doc.paths[path]?.[method.toLowerCase()];
      if (!operation) return [`${method} ${path} is not in the document`];
      const response = operation.responses[String(status)];
      if (!response) return [`status ${status} is not documented for ${operation.operationId}`];
      const media = Object.keys(response.content ?? {});
      if (media.length === 0) return [];
      const type = (contentType ?? "").split(";")[0]!.trim();
      if (!media.includes(type)) return [`content type ${type || "(none)"} is not documented for ${operation.operationId} ${status}`];
      if (!response.content[type].schema) return [];
      const validate = validatorAt(`/paths/${pointerSegment(path)}/${method.toLowerCase()}/responses/${status}/content/${pointerSegment(type)}/schema`);
      return validate(body) ? [] : (validate.errors ?? []).map((e) => `${operation.operationId} ${status} body ${e.instancePath} ${e.message}`);
    },
  };
}
