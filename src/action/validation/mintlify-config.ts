import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

/**
 * Mintlify's own docs.json schema (vendor/mintlify/, from @mintlify/validation), read from the
 * Action's checkout: next to dist/ in the bundle, at the repository root from source.
 */
const SCHEMA_CANDIDATES = ["../vendor/mintlify/docs-schema.json", "../../../vendor/mintlify/docs-schema.json"].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));

let validators: Map<string, ValidateFunction> | null = null;

/** One validator per theme: the schema is one branch per theme, and errors from the other branches would only be noise. */
function themeValidators(): Map<string, ValidateFunction> | null {
  if (validators) return validators;
  const file = SCHEMA_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!file) return null;
  const schema = JSON.parse(readFileSync(file, "utf8")) as { anyOf: Array<{ properties?: { theme?: { const?: string } } }> };
  // The schema is written for JavaScript RegExps without the u flag (its patterns escape `_`).
  // Compiled once a run, validating one file: references kept as functions and the generated code
  // left unoptimized compile in 0.8 s of CPU instead of 1.9 s, and validate as fast (0.06 ms).
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false, inlineRefs: false, code: { optimize: false } });
  ajv.addSchema(schema, "docs.json");
  validators = new Map(schema.anyOf.flatMap((branch, index) => (branch.properties?.theme?.const ? [[branch.properties.theme.const, ajv.getSchema(`docs.json#/anyOf/${index}`) as ValidateFunction]] : [])));
  return validators;
}

const describe = (error: ErrorObject) => {
  const where = error.instancePath ? error.instancePath.slice(1).replace(/\//g, ".") : "the file";
  if (error.keyword === "additionalProperties") return `${where}: has '${String(error.params.additionalProperty)}', which Mintlify does not know`;
  if (error.keyword === "enum") return `${where}: must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  return `${where}: ${error.message ?? "is not valid"}`;
};

/**
 * Problems Mintlify's own schema finds in docs.json (or none when the schema is not there, or the
 * file is not JSON: the navigation check says that). Deduplicated, because a value that fits no
 * branch of a union is reported once per branch.
 */
export function mintlifyConfigProblems(configFile: string, text: string): string[] {
  if (path.posix.basename(configFile) !== "docs.json") return [];
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    return [];
  }
  const byTheme = themeValidators();
  if (!byTheme) return [];
  const theme = (config as { theme?: unknown } | null)?.theme;
  const validate = typeof theme === "string" ? byTheme.get(theme) : undefined;
  if (!validate) return [`${configFile}: theme must be one of ${[...byTheme.keys()].join(", ")} (Mintlify's docs.json schema)`];
  if (validate(config)) return [];
  return [...new Set((validate.errors ?? []).filter((error) => error.keyword !== "anyOf" && error.keyword !== "oneOf").map((error) => `${configFile}: ${describe(error)} (Mintlify's docs.json schema)`))].slice(0, 20);
}
