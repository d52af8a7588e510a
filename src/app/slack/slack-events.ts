import { z } from "zod";
import { DomainError } from "../domain/errors.js";
import { defineTask, type TaskDefinition } from "../tasks/task-definition.js";
import { slackContext, type SlackTaskDeps } from "./context.js";
import { handleInteraction } from "./interactions.js";
import { handleCommand, handleMention, handleThreadMessage } from "./mentions.js";

// The `slack_event` task: what a mention, a reply, a button or the shortcut means, done after
// Slack got its answer (receiver.ts queued it), with the job commands every edge uses.

export const SLACK_EVENT_TASK = "slack_event";

const queuedSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("event"), teamId: z.string(), event: z.record(z.string(), z.unknown()) }),
  z.object({ kind: z.literal("interaction"), payload: z.record(z.string(), z.unknown()) }),
  z.object({ kind: z.literal("command"), command: z.object({ command: z.string(), text: z.string(), trigger_id: z.string(), team_id: z.string(), channel_id: z.string(), user_id: z.string() }) }),
]);
export type SlackQueued = z.infer<typeof queuedSchema>;

export function slackEventTask(deps: SlackTaskDeps): TaskDefinition {
  return defineTask<SlackQueued>({
    kind: SLACK_EVENT_TASK,
    payload: queuedSchema,
    async run(queued) {
      const context = await slackContext(deps);
      if (!context) return { skipped: "Slack is not set up any more" };
      try {
        const detail =
          queued.kind === "event"
            ? queued.event.type === "app_mention" || !queued.event.thread_ts
              ? await handleMention(context, queued.teamId, queued.event)
              : await handleThreadMessage(context, queued.teamId, queued.event)
            : queued.kind === "interaction"
              ? await handleInteraction(context, queued.payload)
              : await handleCommand(context, queued.command);
        return { ok: true, detail };
      } catch (error) {
        // A refusal of the domain's (archived, rate-limited, not waiting) was said in the thread by the handler; anything else is tried again.
        if (error instanceof DomainError) return { ok: false, retryable: false, error: error.message };
        return { ok: false, retryable: true, error: (error as Error).message };
      }
    },
  });
}
