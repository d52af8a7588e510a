/**
 * What a pull request's body or comment shows of an instruction. An automation's instruction
 * carries what it is about (a merge's diff, an issue's text) for the agent, and a repair round's
 * the failing checks' logs; only its first paragraph, what happened and its link, is shown, so a
 * private repository's code (or a build log) is not copied into the docs PR by the instruction itself.
 */
export function shownInstruction(message: { prompt: string; source: string }): string {
  if (message.source !== "automation" && message.source !== "checks") return message.prompt;
  const head = message.prompt.split(/\n\s*\n/)[0] ?? "";
  return head.length < message.prompt.length ? `${head}\n(the rest of this instruction is on the job's page)` : head;
}
