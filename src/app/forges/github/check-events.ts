import { z } from "zod";

/**
 * The deliveries that say the checks on a commit changed (domain/jobs/checks.ts): a check run or a
 * check suite completed, a commit status set. Each becomes one small event naming the repository
 * and the commit; the `checks` task reads what is on it through the API, so the order deliveries
 * arrive in never matters. Parsed at the edge like `webhook-events.ts`.
 */
export const checksChangedEventSchema = z.object({
  type: z.literal("checks_changed"),
  repo: z.string(),
  installationId: z.number(),
  sha: z.string(),
  /** What said so, for the log: `check_run docs build completed`, `status ci/vale failure`. */
  what: z.string(),
});
export type ChecksChangedEvent = z.infer<typeof checksChangedEventSchema>;

const repository = z.object({ full_name: z.string() });
const installation = z.object({ id: z.number() });
const sha = z.string().regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/);

const checkRunEvent = z.object({ action: z.literal("completed"), repository, installation, check_run: z.object({ name: z.string(), head_sha: sha, conclusion: z.string().nullable().optional() }) });
const checkSuiteEvent = z.object({ action: z.literal("completed"), repository, installation, check_suite: z.object({ head_sha: sha, conclusion: z.string().nullable().optional() }) });
const statusEvent = z.object({ repository, installation, sha, context: z.string(), state: z.enum(["pending", "success", "failure", "error"]) });

/** A check_run, check_suite or status delivery as the `checks_changed` event, or null when it changes no verdict (a run created, a status still pending). */
export function checksChangedEvent(name: "check_run" | "check_suite" | "status", payload: unknown): ChecksChangedEvent | null {
  const event = (repo: z.infer<typeof repository>, inst: z.infer<typeof installation>, commit: string, what: string): ChecksChangedEvent => ({
    type: "checks_changed",
    repo: repo.full_name,
    installationId: inst.id,
    sha: commit,
    what,
  });
  if (name === "check_run") {
    const e = checkRunEvent.safeParse(payload);
    return e.success ? event(e.data.repository, e.data.installation, e.data.check_run.head_sha, `check run ${e.data.check_run.name} ${e.data.check_run.conclusion ?? "completed"}`) : null;
  }
  if (name === "check_suite") {
    const e = checkSuiteEvent.safeParse(payload);
    return e.success ? event(e.data.repository, e.data.installation, e.data.check_suite.head_sha, `check suite ${e.data.check_suite.conclusion ?? "completed"}`) : null;
  }
  const e = statusEvent.safeParse(payload);
  return e.success && e.data.state !== "pending" ? event(e.data.repository, e.data.installation, e.data.sha, `status ${e.data.context} ${e.data.state}`) : null;
}
