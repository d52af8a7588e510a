import { z } from "zod";
import { replaceMarkedSection, sectionMarkers } from "../shared/marked-section.js";

/**
 * The manual's environment reference (docs/configuration.md), rendered from the config schema itself (its JSON Schema:
 * defaults, types, ranges, choices, and each variable's `description` and `unset` metadata), so
 * the schema in config.ts stays the one list of variables. `npm run docs:generate` writes it between
 * the markers below; a unit test fails when the page and the schema disagree.
 */
const ENV_REFERENCE = "env-reference";
export const { start: ENV_REFERENCE_START, end: ENV_REFERENCE_END } = sectionMarkers(ENV_REFERENCE);

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  unset?: string;
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
}

export interface EnvReferenceRow {
  name: string;
  default: string;
  accepts: string;
  description: string;
}

/** One row per variable, in the schema's order. Throws for a variable without a one-line description. */
export function envReferenceRows(schema: z.ZodObject): EnvReferenceRow[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, PropertySchema> };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const description = property.description?.trim() ?? "";
    if (!description || /\n/.test(description)) throw new Error(`${name} needs a one-line description in the config schema (.meta({ description }))`);
    return { name, default: defaultOf(property), accepts: acceptedValues(property), description };
  });
}

/** The Markdown table (with a note that it is generated), as it stands between the page's markers. */
export function renderEnvReference(schema: z.ZodObject): string {
  const lines = [
    "[//]: # (Generated from envSchema in src/app/config.ts by `npm run docs:generate`; edit the schema, not this table.)",
    "",
    "| Variable | Default | Accepts | Meaning |",
    "|---|---|---|---|",
    ...envReferenceRows(schema).map((row) => `| \`${row.name}\` | ${cell(row.default)} | ${cell(row.accepts)} | ${cell(row.description)} |`),
  ];
  return lines.join("\n");
}

/** The page with its environment reference replaced by `section`. */
export const replaceEnvReference = (page: string, section: string) => replaceMarkedSection(page, ENV_REFERENCE, section);

function defaultOf(property: PropertySchema): string {
  if (property.default !== undefined) return `\`${String(property.default)}\``;
  return property.unset ?? "unset";
}

function acceptedValues(property: PropertySchema): string {
  if (property.enum) return property.enum.map((value) => `\`${String(value)}\``).join(", ");
  if (property.type === "integer" || property.type === "number") {
    const kind = property.type === "integer" ? "integer" : "number";
    // zod's .int() bounds every integer by the safe range; only the schema's own bounds say anything.
    const min = property.minimum !== undefined && property.minimum > Number.MIN_SAFE_INTEGER ? property.minimum : undefined;
    const max = property.maximum !== undefined && property.maximum < Number.MAX_SAFE_INTEGER ? property.maximum : undefined;
    if (min !== undefined && max !== undefined) return `${kind} ${min}–${max}`;
    if (min !== undefined) return `${kind} ≥ ${min}`;
    if (max !== undefined) return `${kind} ≤ ${max}`;
    return kind;
  }
  if (property.format === "uri") return "URL";
  if (property.pattern) return `text matching \`${property.pattern}\``;
  if (property.minLength !== undefined && property.minLength > 1) return `text, at least ${property.minLength} characters`;
  return "text";
}

/** A table cell: pipes escaped, on one line. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
