import type { z } from "zod";
import { skip, type Skipped } from "../fields.js";

/** A malformed-line skip naming the first field zod found wrong, in the log's own field names. */
export function zodSkip(error: z.ZodError, prefix: string): Skipped {
  const issue = error.issues[0];
  const field = [prefix, ...(issue?.path ?? []).map(String)].join(".");
  return skip("malformed", `${field}: ${issue?.message ?? "unreadable"}`);
}
