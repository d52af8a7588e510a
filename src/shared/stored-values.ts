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

/** Text from elsewhere (a webhook) made storable: NUL dropped, a lone surrogate (a cut emoji, say) replaced by U+FFFD. */
export const storable = (value: string): string => value.replaceAll("\u0000", "").replace(new RegExp(LONE_SURROGATE.source, "g"), "\uFFFD");

export const STORABLE_TEXT_ERROR = "must not contain NUL (U+0000) or unpaired surrogate characters";

/** Counts what a person calls characters (code points), not UTF-16 units. */
export function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** One storable character, as a JSON Schema (ECMA-262, Unicode mode) character class. */
const STORABLE_CHAR = "[^\\u0000\\uD800-\\uDFFF]";
/** Optional leading whitespace, one visible storable character, then anything storable: linear to match. */
const TRIMMED_NON_EMPTY = `^\\s*[^\\s\\u0000\\uD800-\\uDFFF]${STORABLE_CHAR}*$`;

/**
 * A stored string of at most `max` characters (code points), optionally trimmed first and
 * required to be non-empty. The JSON Schema states every rule (length, content, "not only
 * whitespace") so a request valid by the OpenAPI document is never refused.
 */
/** A missing field is "required"; a field of another type "must be a string". */
export const stringExpected = { error: (issue: { input: unknown }) => (issue.input === undefined ? "is required" : "must be a string") };

export function storedText(max: number, options: { trim?: boolean; min?: 0 | 1 } = {}) {
  const min = options.min ?? 0;
  const base = options.trim ? z.string(stringExpected).trim() : z.string(stringExpected);
  const pattern = options.trim && min === 1 ? TRIMMED_NON_EMPTY : `^${STORABLE_CHAR}*$`;
  return base
    .refine((value) => value.length >= min, { error: "must not be empty" })
    .refine((value) => codePoints(value) <= max, { error: `must be at most ${max} characters` })
    .refine(isStorableText, { error: STORABLE_TEXT_ERROR })
    .meta({ maxLength: max, ...(min > 0 ? { minLength: min } : {}), pattern });
}

/** An integer that fits a PostgreSQL `integer` column, at least `min`. */
export const storedInt = (min: number, max = INT32_MAX) => z.int().min(min).max(max);
