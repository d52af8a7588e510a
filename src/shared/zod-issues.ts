import type { z } from "zod";

export interface FieldIssue {
  /** The dotted path of the offending field, or `whole` when the problem is the value itself. */
  field: string;
  message: string;
}

/**
 * Each problem zod found, with the field it concerns. Given the input, a required field that is
 * missing names the given field it was probably meant as (`promt` for `prompt`).
 */
export function fieldIssues(error: z.ZodError, whole: string, input?: unknown): FieldIssue[] {
  const given = typeof input === "object" && input !== null && !Array.isArray(input) ? Object.keys(input) : [];
  return error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join(".") : whole;
    const missing = issue.code === "invalid_type" && issue.path.length === 1 && given.length > 0 && !given.includes(String(issue.path[0]));
    const typo = missing ? given.find((key) => isTypoOf(key, String(issue.path[0]))) : undefined;
    return { field, message: typo ? `${issue.message} (the request has "${typo}": did you mean "${field}"?)` : issue.message };
  });
}

/** Within two edits (insert, delete, substitute, swap) of `name`, ignoring case. */
function isTypoOf(key: string, name: string): boolean {
  const a = key.toLowerCase();
  const b = name.toLowerCase();
  if (a === b) return key !== name;
  if (Math.abs(a.length - b.length) > 2 || Math.min(a.length, b.length) < 3) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let before: number[] = [];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (before[j - 2] ?? 0) + 1);
      row.push(best);
    }
    before = previous;
    previous = row;
  }
  return (previous[b.length] ?? Infinity) <= 2;
}

/** Every problem on one line, each naming its field: `prompt: …; limit: …`. */
export function describeIssues(error: z.ZodError, whole: string, separator = "; "): string {
  return fieldIssues(error, whole)
    .map((issue) => `${issue.field}: ${issue.message}`)
    .join(separator);
}
