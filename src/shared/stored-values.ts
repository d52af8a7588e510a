import { z } from "zod";

/**
 * What the store can hold, checked at the edge so a request is refused with a 400 naming the
 * field instead of failing in the database. Every schema of a value that is stored uses these.
 */

/** The largest value of a PostgreSQL `integer` column. */
export const INT32_MAX = 2_147_483_647;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** PostgreSQL text cannot hold U+0000, and UTF-8 cannot encode a lone UTF-16 surrogate. */
export function isStorableText(value: string): boolean {
  return !value.includes("\u0000") && !LONE_SURROGATE.test(value);
}

export const STORABLE_TEXT_ERROR = "must not contain NUL (U+0000) or unpaired surrogate characters";

/** Counts what a person calls characters (code points), not UTF-16 units. */
export function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/**
 * A stored string of at most `max` characters (code points), optionally trimmed first and
 * required to be non-empty. The description says what is enforced, for the OpenAPI document.
 */
export function storedText(max: number, options: { trim?: boolean; min?: number } = {}) {
  const min = options.min ?? 0;
  const base = options.trim ? z.string({ error: "must be a string" }).trim() : z.string({ error: "must be a string" });
  return base
    .refine((value) => value.length >= min, { error: min === 1 ? "must not be empty" : `must be at least ${min} characters` })
    .refine((value) => codePoints(value) <= max, { error: `must be at most ${max} characters` })
    .refine(isStorableText, { error: STORABLE_TEXT_ERROR })
    .meta({ maxLength: max, ...(min > 0 ? { minLength: min } : {}) });
}

/** An integer that fits a PostgreSQL `integer` column, at least `min`. */
export const storedInt = (min: number, max = INT32_MAX) => z.int().min(min).max(max);
