/** Days of traffic a suggestion looks back over. */
export const SUGGESTION_DAYS = 30;

/** A job the site's readers suggest (`suggestions.ts`), shown on the Automations page with its instruction prefilled. */
export interface Suggestion {
  /** `redirect`: a page AI agents failed to find; `refresh`: a page AI reads most; `robots`: what robots.txt should say to an AI agent. */
  kind: "redirect" | "refresh" | "robots";
  path: string;
  /** What the numbers say, for the dashboard row. */
  detail: string;
  /** The job's instruction, prefilled. */
  prompt: string;
}
