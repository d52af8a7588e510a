import { z } from "zod";
import {
  CHANGE_READY_TASK,
  CHECKS_GRACE_SECONDS,
  CHECKS_TASK,
  changeToMarkReady,
  jobWatchingHead,
  queueChecksLook,
  recordChecksVerdict,
  recordMarkedReady,
  repairRoundDue,
  watchedHead,
} from "../domain/jobs/checks.js";
import type { Forge } from "../domain/projects.js";
import type { Db } from "../store/db.js";
import { defineTask, type TaskDefinition, type TaskOutcome } from "../tasks/task-definition.js";
import { checksVerdictOf, EXCERPTS_PER_ROUND, logExcerpt, repairInstruction, type ChecksForge } from "./checks.js";
import { forgeWords } from "../../shared/forge-words.js";

const payload = z.object({ jobId: z.string(), sha: z.string() });

/** A forge said the checks on this commit changed: a look is queued when it is a watched job's head (each forge's event task calls this). */
export async function lookAtChecks(db: Db, where: { repoName: string } | { projectId: string }, sha: string): Promise<TaskOutcome> {
  const jobId = await jobWatchingHead(db, where, sha);
  if (!jobId) return { skipped: "not the head of a job whose checks are watched" };
  await db.transaction((tx) => queueChecksLook(tx, jobId, sha));
  return { ok: true };
}

/**
 * The `checks` task (a webhook said the checks on a job's head changed, or the grace period after its
 * push is over): the forge lists them, one verdict is taken over them, and the domain records it
 * under the job's lock (a repair round, or the change request marked ready by `change_ready`). A
 * repair round's logs are read only when one is due. A forge without a reader (no GitHub App) skips.
 */
export function checksTasks(db: Db, forges: Partial<Record<Forge, ChecksForge>>, clock: () => number, graceSeconds = CHECKS_GRACE_SECONDS): TaskDefinition[] {
  const look = defineTask({
    kind: CHECKS_TASK,
    payload,
    async run({ jobId, sha }) {
      const head = await watchedHead(db, jobId, sha);
      if (!head) return { skipped: "the job's head moved on, or its checks are not watched" };
      const forge = forges[head.job.forge];
      if (!forge) return { skipped: `no ${forgeWords(head.job.forge).access} to read the checks with` };
      const found = await forge.checksOn(head);
      const verdict = checksVerdictOf(found, { pushedAt: Date.parse(head.checks.pushedAt), now: clock(), graceSeconds });
      let repair: string | null = null;
      if (verdict.state === "failing" && (await repairRoundDue(db, head))) {
        const failed = found.filter((check) => check.status === "failed");
        const excerpts = await Promise.all(
          failed.map(async (check, i) => (i < EXCERPTS_PER_ROUND && check.log ? logExcerpt(await check.log().catch((error: unknown) => `(its log could not be read: ${error instanceof Error ? error.message : String(error)})`)) : null)),
        );
        repair = repairInstruction(sha, failed.map((check, i) => ({ name: check.name, url: check.url, excerpt: excerpts[i] ?? null })));
      }
      return { ok: true, detail: await db.transaction((tx) => recordChecksVerdict(tx, jobId, sha, { ...verdict, repair })) };
    },
  });
  const ready = defineTask({
    kind: CHANGE_READY_TASK,
    payload,
    async run({ jobId, sha }) {
      const job = await changeToMarkReady(db, jobId, sha);
      if (!job) return { skipped: "the job's head moved on, or its change request is to stay a draft" };
      const forge = forges[job.forge];
      if (!forge) return { skipped: `no ${forgeWords(job.forge).access} to mark it ready with` };
      const marked = await forge.markReady(job);
      return "skipped" in marked ? marked : { ok: true, detail: marked.marked };
    },
    async onDone(tx, { jobId }, detail) {
      if (detail) await recordMarkedReady(tx, jobId, detail);
    },
  });
  return [look, ready];
}
