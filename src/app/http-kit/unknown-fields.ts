import { nearestName } from "../../shared/nearest-name.js";
import type { z } from "zod";

/** One name the schema does not know, with the known name it most likely meant. */
export interface UnknownField {
  field: string;
  suggestion: string | null;
}

type Def = { type?: string; shape?: Record<string, z.ZodType>; catchall?: z.ZodType; innerType?: z.ZodType; in?: z.ZodType; options?: z.ZodType[] };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The fields an object schema knows, through optional, default, pipe and union wrappers; null for a schema that is not an object. */
function knownShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  const def = defOf(schema);
  if (def.type === "object" && def.shape) return def.shape;
  if (def.innerType) return knownShape(def.innerType);
  if (def.type === "pipe" && def.in) return knownShape(def.in);
  if (def.type === "union" && def.options) {
    const shapes = def.options.map(knownShape);
    return shapes.every((shape) => shape !== null) ? Object.assign({}, ...shapes) : null;
  }
  return null;
}

/**
 * Whether the schema is a strict object (every option of a union one): a body it validates has
 * no room for a field it does not name, and its JSON Schema says `additionalProperties: false`.
 */
export function isClosed(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === "object") return def.catchall !== undefined && defOf(def.catchall).type === "never";
  if (def.innerType) return isClosed(def.innerType);
  if (def.type === "pipe" && def.in) return isClosed(def.in);
  if (def.type === "union" && def.options) return def.options.every(isClosed);
  return false;
}

/**
 * The names in `input` that `schema` does not know, nested objects included (`analytics.saltwindow`),
 * each with the nearest known name: a typo would otherwise be dropped without a word, and the
 * caller would believe it had filtered or changed something.
 */
export function unknownFields(schema: z.ZodType, input: unknown, prefix = ""): UnknownField[] {
  const shape = knownShape(schema);
  if (!shape || typeof input !== "object" || input === null || Array.isArray(input)) return [];
  const known = Object.keys(shape);
  return Object.entries(input).flatMap(([key, value]) => {
    // Own fields only: `constructor` or `__proto__` in a body must not find Object's.
    const child = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (child) return unknownFields(child, value, `${prefix}${key}.`);
    return [{ field: `${prefix}${key}`, suggestion: nearestName(key, known) }];
  });
}
