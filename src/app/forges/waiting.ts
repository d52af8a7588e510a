import { z } from "zod";
import { waitingNoticeOf, WAITING_COMMENT_TASK } from "../domain/jobs/waiting.js";
import type { Db } from "../store/db.js";
import { defineTask, type TaskDefinition, type TaskOutcome } from "../tasks/task-definition.js";
import type { ForgeName } from "../../shared/forge-words.js";

/**
 * The comment that announces a wait where the job's people talk (its pull request, else the
 * issue it came from), saying how to answer: a reply there from someone with write access is
 * the answer or the approval.
 */
export function waitingCommentText(notice: { jobId: string; waitingFor: "approval" | "answer"; text: string }, command: string, slug: string): string {
  const quoted = notice.text
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
  return notice.waitingFor === "approval"
    ? [
        `Inkwell job \`${notice.jobId}\` has a plan and waits for its approval before it changes anything:`,
        quoted,
        `Reply \`${command} approve\` to carry it out, or \`${command} <what to change>\` (or mention @${slug}) to have it revised.`,
      ].join("\n\n")
    : [`Inkwell job \`${notice.jobId}\` has a question before it goes on:`, quoted, `Reply \`${command} <your answer>\` (or mention @${slug}) to answer it.`].join("\n\n");
}

const payload = z.object({ jobId: z.string(), runAttempt: z.int() });

export type WaitingNotice = NonNullable<Awaited<ReturnType<typeof waitingNoticeOf>>>;

/** A forge's side of the waiting note (`github/notes.ts`, `gitlab/notes.ts`): posts the notice where the job's people talk; `text` is given the handle a reply mentions. false: the forge cannot write there (no App installed). */
export interface WaitingNoteForge {
  writeWaiting(notice: WaitingNotice, text: (handle: string) => string): Promise<boolean>;
}

/**
 * The `waiting_comment` task: posts the plan or question once per waiting run, where the job's
 * people talk on its forge; skipped when the job no longer waits from that run.
 */
export function waitingCommentTask(db: Db, forges: Partial<Record<ForgeName, WaitingNoteForge>>, command: string): TaskDefinition {
  return defineTask({
    kind: WAITING_COMMENT_TASK,
    payload,
    async run({ jobId, runAttempt }): Promise<TaskOutcome> {
      const notice = await waitingNoticeOf(db, jobId, runAttempt);
      if (!notice) return { skipped: "the job no longer waits from this run, or has nowhere to ask" };
      const forge = forges[notice.forge];
      if (!forge || !(await forge.writeWaiting(notice, (handle) => waitingCommentText(notice, command, handle)))) return { skipped: "no GitHub App configured" };
      return { ok: true };
    },
  });
}
