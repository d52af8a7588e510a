import { z } from "zod";
import { MAX_PLAN_CHARS, MAX_QUESTION_CHARS } from "../../shared/job-vocabulary.js";
import type { ReportRequest } from "../../shared/runner-schemas.js";
import type { AgentTools } from "./agent-loop.js";
import { defineTool, toolGuard, type ToolStats } from "./tools.js";

export type Waiting = NonNullable<Extract<ReportRequest, { outcome: "completed" }>["waiting"]>;

/**
 * What the agent leaves for the user when it stops to wait (docs/api.md, "Plans and questions"):
 * a plan to approve, or its questions. Either ends the run after the turn that made it, with
 * nothing pushed.
 */
export class WaitingNote {
  plan: string | null = null;
  readonly questions: string[] = [];

  constructor(readonly maxQuestions: number) {}

  /** The run should stop now: a plan was submitted or a question asked. */
  get stopping(): boolean {
    return this.plan !== null || this.questions.length > 0;
  }

  /** What the run reports; a question outranks a plan (the plan cannot be right before the answer). */
  waiting(): Waiting | null {
    if (this.questions.length > 0) return { for: "answer", question: this.questions.join("\n\n").slice(0, MAX_QUESTION_CHARS) };
    if (this.plan !== null) return { for: "approval", plan: this.plan };
    return null;
  }
}

/** The tools a planning run writes with instead of the write tools: it reads, then submits its plan. */
export const WRITE_TOOLS = ["write_file", "edit_file", "move_file", "delete_file"] as const;

/**
 * `submit_plan` (only while planning) and `ask_question` (only with questions left in the run's
 * budget). Answers are text for the model, like every tool's.
 */
export function createWaitingTools(note: WaitingNote, stage: "plan" | "work", stats: ToolStats, onCall?: (name: string) => void): AgentTools {
  const guarded = toolGuard(stats, onCall);
  const tools: AgentTools = {};
  if (stage === "plan") {
    tools.submit_plan = defineTool({
      description:
        "Submit your plan for the user's approval and stop. List each page you will add, change, move or delete, with a few lines on what and why (one bullet per page). Nothing is changed until the plan is approved.",
      inputSchema: z.object({ plan: z.string().trim().min(1).max(MAX_PLAN_CHARS) }),
      execute: guarded("submit_plan", async ({ plan }: { plan: string }) => {
        note.plan = plan;
        return "Plan recorded. The run stops now and the job waits for the user's approval.";
      }),
    });
  }
  if (note.maxQuestions > 0) {
    tools.ask_question = defineTool({
      description: `Ask the user one concise question instead of guessing, when the instructions are ambiguous or contradict the docs. The run stops after this turn and nothing it changed is kept; the answer starts the next run. At most ${note.maxQuestions} per run: ask before changing files.`,
      inputSchema: z.object({ question: z.string().trim().min(1).max(MAX_QUESTION_CHARS) }),
      execute: guarded("ask_question", async ({ question }: { question: string }) => {
        if (note.questions.length >= note.maxQuestions) return `Error: this run may ask no more questions (at most ${note.maxQuestions}): decide yourself and say in your summary what you assumed.`;
        note.questions.push(question);
        return "Question recorded. The run stops now and the job waits for the user's answer.";
      }),
    });
  }
  return tools;
}
