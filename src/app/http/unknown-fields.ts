import { closest, distance } from "fastest-levenshtein";
import type { z } from "zod";

/** One name the schema does not know, with the known name it most likely meant. */
export interface UnknownField {
  field: string;
  suggestion: string | null;
}

type Def = { type?: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; in?: z.ZodType; options?: z.ZodType[] };
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
    return [{ field: `${prefix}${key}`, suggestion: nearest(key, known) }];
  });
}

/** The known name a typo most likely meant: the same name in another case, else one a few edits away. */
function nearest(name: string, known: string[]): string | null {
  if (known.length === 0) return null;
  const sameLetters = known.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  if (sameLetters) return sameLetters;
  const best = closest(name, known);
  return distance(name, best) <= Math.max(2, Math.floor(name.length / 3)) ? best : null;
}
