import type { z } from "zod";

export interface FieldIssue {
  /** The dotted path of the offending field, or `whole` when the problem is the value itself. */
  field: string;
  message: string;
}

/** Each problem zod found, with the field it concerns. */
export function fieldIssues(error: z.ZodError, whole: string): FieldIssue[] {
  return error.issues.map((issue) => ({ field: issue.path.length > 0 ? issue.path.join(".") : whole, message: issue.message }));
}

/** Every problem on one line, each naming its field: `prompt: …; limit: …`. */
export function describeIssues(error: z.ZodError, whole: string, separator = "; "): string {
  return fieldIssues(error, whole)
    .map((issue) => `${issue.field}: ${issue.message}`)
    .join(separator);
}
