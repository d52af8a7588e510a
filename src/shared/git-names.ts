import { z } from "zod";

/** A branch name git would accept, conservatively. */
export const refName = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^(?!\/|.*\/$|.*\/\/|.*\.\.|.*@\{|.*\.lock$|.*\.$)[A-Za-z0-9._/-]+$/, { error: "must be a valid branch name" });

/** A GitHub user login, or a team as `org/team-slug`: who may be asked to review a pull request. */
export const reviewerName = z
  .string()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,99})?$/, { error: "must be a GitHub login or org/team-slug" });
