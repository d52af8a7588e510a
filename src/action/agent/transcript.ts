import type { TranscriptEntry } from "../../shared/job-outcome-schemas.js";
import { TRANSCRIPT_ENTRY_CHARS } from "../../shared/job-outcome-schemas.js";
import { MAX_TRANSCRIPT_ENTRIES } from "../../shared/runner-schemas.js";
import type { AgentSession } from "./agent-loop.js";

const FIRST_ENTRIES = 300;

const cut = (text: string) => (text.length <= TRANSCRIPT_ENTRY_CHARS ? text : `${text.slice(0, TRANSCRIPT_ENTRY_CHARS)}… [${text.length - TRANSCRIPT_ENTRY_CHARS} more characters]`);

/**
 * The run's transcript, read off the conversation itself: what the model was told and answered,
 * each tool call and its result. Tokens and keys never enter that conversation (the model has no
 * use for them), so they are not in the transcript by construction. Each entry is cut to
 * TRANSCRIPT_ENTRY_CHARS; a very long run keeps its first and last entries and says how many
 * were left out between them.
 */
export function transcriptOf(session: AgentSession): { entries: TranscriptEntry[]; elided: number } {
  const all: TranscriptEntry[] = [];
  if (session.system) all.push({ kind: "system", text: cut(session.system) });
  const notes = session.notes ?? [];
  let nextNote = 0;
  for (const [index, message] of session.messages.entries()) {
    for (; nextNote < notes.length && (notes[nextNote]?.at ?? Infinity) <= index; nextNote++) all.push({ kind: "context", text: cut(notes[nextNote]?.text ?? "") });
    if (message.role === "user") {
      for (const part of message.content) if (part.type === "text") all.push({ kind: "instruction", text: cut(part.text) });
    } else if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type === "text" && part.text.trim()) all.push({ kind: "assistant", text: cut(part.text) });
        if (part.type === "tool-call") all.push({ kind: "tool_call", tool: part.toolName, text: cut(JSON.stringify(part.input)) });
      }
    } else if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        const output = part.output.type === "text" || part.output.type === "error-text" ? part.output.value : JSON.stringify(part.output);
        all.push({ kind: "tool_result", tool: part.toolName, text: cut(output) });
      }
    }
  }
  for (const note of notes.slice(nextNote)) all.push({ kind: "context", text: cut(note.text) });
  if (all.length <= MAX_TRANSCRIPT_ENTRIES) return { entries: all, elided: 0 };
  const last = MAX_TRANSCRIPT_ENTRIES - FIRST_ENTRIES;
  return { entries: [...all.slice(0, FIRST_ENTRIES), ...all.slice(-last)], elided: all.length - MAX_TRANSCRIPT_ENTRIES };
}
