import { shownInstruction } from "../../shared/shown-instruction.js";
import { z } from "zod";
import type { JobChecks, JobStatus } from "../../shared/api-schemas.js";
import { recordTrackingComment, trackingCommentState, type TrackingTarget, type TrackingView } from "../domain/jobs/tracking.js";
import type { Db } from "../store/db.js";
import { TRACKING_TASK } from "../domain/jobs/job-tasks.js";
import { defineTask, type TaskDefinition } from "../tasks/task-definition.js";
import { impactLine } from "../impact/impact-line.js";
import { FORGE_WORDS, type ForgeName } from "../../shared/forge-words.js";

const HEADLINE: Record<JobStatus, string> = {
  active: "⏳ Working",
  completed: "✅ Done",
  failed: "❌ Failed",
  archived: "📦 Archived",
};

const quote = (text: string, max = 600) => {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
};

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}

/** What a run, this comment and the change request are called on each forge. */
const WORDS = FORGE_WORDS;

/** Who gave an instruction without a person's name. */
const SOURCE_WORDS: Partial<Record<string, string>> = { dashboard: "on the dashboard", automation: "by an automation", checks: "the repository's checks" };

/** What the repository's own checks say of the job's head: the draft waits for them, a failure names its checks. */
function checksLine(checks: JobChecks, change: string): string {
  const on = `on \`${checks.sha.slice(0, 7)}\``;
  if (checks.state === "pending") return `**Checks**: running ${on}; the ${change} stays a draft until they pass`;
  if (checks.state === "passing") return `**Checks**: passed ${on}`;
  const failing = checks.failing.map((check) => (check.url ? `[${check.name}](${check.url})` : check.name)).join(", ");
  return `**Checks**: failed ${on}: ${failing}${checks.rounds > 0 ? ` (repair rounds: ${checks.rounds})` : ""}`;
}

/** The one comment Inkwell keeps on a job's PR (a note on its merge request on GitLab), edited in place. Pure: tested on its own. */
export function renderTrackingComment(view: TrackingView, command = "/inkwell", forge: TrackingTarget["forge"] = "github"): string {
  const words = WORDS[forge];
  const headline = view.waiting ? (view.waiting.for === "approval" ? "✋ Waiting for approval of its plan" : "✋ Waiting for an answer") : HEADLINE[view.status];
  const lines = [`<!-- inkwell:tracking:${view.jobId} -->`, `### Inkwell · ${headline}`, ""];
  lines.push("**Instructions**", "");
  view.instructions.forEach((m, i) => {
    lines.push(`${i + 1}. ${m.author ? `@${m.author}` : (SOURCE_WORDS[m.source] ?? "via the API")}:`, quote(shownInstruction(m)), "");
  });
  const run = view.run;
  if (run) {
    lines.push(`**Run**: ${run.url ? `[${words.run}](${run.url})` : words.run} (attempt ${run.attempt})`);
    if (view.status === "active" && run.progress) lines.push(`**Progress**: ${run.progress}`);
    const report = run.report;
    if (report?.validation) {
      lines.push(
        report.validation.passed
          ? "**Validation**: passed"
          : `**Validation**: ${report.validation.problems.length} problem(s)\n${report.validation.problems.slice(0, 20).map((p) => `- ${p}`).join("\n")}`,
      );
    }
    const facts: string[] = [];
    const ms = report?.durationMs ?? (run.reportedAt ? Date.parse(run.reportedAt) - Date.parse(run.claimedAt) : null);
    if (ms !== null && view.status !== "active") facts.push(`**Duration**: ${duration(ms)}`);
    if (report?.usage) facts.push(`**Tokens**: ${report.usage.inputTokens.toLocaleString("en-US")} in / ${report.usage.outputTokens.toLocaleString("en-US")} out`);
    if (report?.model) facts.push(`**Model**: ${report.model}`);
    if (facts.length > 0) lines.push(facts.join(" · "));
  }
  if (view.checks) lines.push(checksLine(view.checks, words.change));
  if (view.waiting) {
    const [label, reply] =
      view.waiting.for === "approval" ? ["**Plan**", `Reply \`${command} approve\` to carry it out, or say what to change.`] : ["**Question**", `Reply \`${command} <your answer>\` to answer it.`];
    lines.push("", label, quote(view.waiting.text, 4_000), "", reply);
  }
  if (view.status === "failed" && view.error) lines.push("", `**Error**: ${view.error}`);
  if (view.impact) lines.push("", `**Impact**: ${impactLine(view.impact)}`);
  if (view.status === "active" && !view.waiting) lines.push("", `_This ${words.comment} updates as the agent works._`);
  return lines.join("\n").trim() + "\n";
}

const payloadSchema = z.object({ jobId: z.string() });

/** A forge's side of the tracking note (`github/notes.ts`, `gitlab/notes.ts`): writes it on the job's change request, a new one or the one `target.commentId` names, and returns its id. */
export interface TrackingNoteForge {
  writeTracking(target: TrackingTarget, body: string): Promise<number>;
}

/** The `tracking_comment` task: render the job's state and write it on its change request, through the job's forge (a forge not configured here skips). */
export function trackingCommentTask(db: Db, forges: Partial<Record<ForgeName, TrackingNoteForge>>, command: string): TaskDefinition {
  return defineTask({
    kind: TRACKING_TASK,
    payload: payloadSchema,
    async run({ jobId }) {
      const state = await trackingCommentState(db, jobId);
      if ("skipped" in state) return state;
      const { view, target } = state;
      const forge = forges[target.forge];
      if (!forge) return { skipped: "no GitHub App configured" };
      const id = await forge.writeTracking(target, renderTrackingComment(view, command, target.forge));
      if (id !== target.commentId) await recordTrackingComment(db, jobId, id);
      return { ok: true };
    },
  });
}
