/** Automations (docs/architecture.md, "Automations"): what starts a job besides a person asking, and how a job records what started it. */
import { z } from "zod";
import { storedText } from "./stored-values.js";
import { JOB_TRIGGER_TYPES } from "./job-vocabulary.js";

export const jobTriggerSchema = z
  .object({
    type: z.enum(JOB_TRIGGER_TYPES),
    url: z.string().optional().meta({ description: "What started it, where it has a page: the merged pull request, the issue, the dashboard's suggestion." }),
    automationId: z.string().optional().meta({ description: "The automation that started it." }),
  })
  .meta({ id: "JobTrigger" });
export type JobTrigger = z.infer<typeof jobTriggerSchema>;

export const AUTOMATION_KINDS = ["source", "issues", "schedule"] as const;
export type AutomationKind = (typeof AUTOMATION_KINDS)[number];

const OWNER_REPO = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;
/** A GitHub repository's name as a source: `owner/repo`. */
export const isGitHubRepoName = (name: string) => OWNER_REPO.test(name);
/** GitHub's owner/repo, or a GitLab project's path on the docs project's instance (group/subgroup/project). */
const SOURCE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}){1,20}$/;
const labelName = storedText(50, { trim: true, min: 1 });
const instruction = storedText(4_000, { trim: true, min: 1 });

/** Five fields, minute to weekday, in UTC: seconds and years are not taken (a schedule fires at most once a minute). */
const CRON_FIELDS = /^\s*(\S+\s+){4}\S+\s*$/;

export const sourceAutomationSchema = z.object({
  kind: z.literal("source"),
  repository: z
    .string()
    .trim()
    .max(2_000)
    .regex(SOURCE_NAME, { error: "must be owner/repo (GitHub) or group/project (GitLab)" })
    .meta({ description: "The code repository whose merged pull requests start jobs: on GitHub owner/repo (the App installed on it); for a GitLab docs project, a project's path on the same instance (group/subgroup/project), where Inkwell registers a merge request webhook." }),
  label: labelName.optional().meta({ description: "Only merges of pull requests with this label." }),
  paths: z.array(storedText(200, { trim: true, min: 1 })).max(50).optional().meta({ description: "Only merges that change a file matching one of these globs (e.g. src/api/**)." }),
  followUps: z.boolean().default(true).meta({ description: "While this automation's docs PR is open, later merges are follow-ups on it (one PR, not one per merge)." }),
  instruction: instruction.optional().meta({ description: "Added to every job's instruction, e.g. which docs pages cover which code." }),
});

export const issuesAutomationSchema = z.object({
  kind: z.literal("issues"),
  label: labelName.default("inkwell").meta({ description: "Labelling an issue of the docs repository with this starts a job (default inkwell)." }),
  mention: z.boolean().default(true).meta({ description: "Mentioning the App in an issue comment starts a job." }),
});

export const scheduleAutomationSchema = z.object({
  kind: z.literal("schedule"),
  cron: z.string().max(100).regex(CRON_FIELDS, { error: "must be five cron fields (minute hour day-of-month month day-of-week), in UTC" }).meta({ description: "When it fires, in UTC, e.g. `0 6 * * 1` (Mondays 06:00): five cron fields, each a value, `*`, a range `a-b` (a ≤ b), a step `*/n` or `a-b/n` within the field, or a list of those; else 400 naming `cron`." }),
  instruction: instruction.meta({ description: "The standing instruction each firing gives the agent." }),
});

export const automationConfigSchema = z.discriminatedUnion("kind", [sourceAutomationSchema, issuesAutomationSchema, scheduleAutomationSchema]);
export type AutomationConfig = z.infer<typeof automationConfigSchema>;

/** As the operator sends it: a field none of the kinds has is refused (docs/api.md). Stored configs are read with the open schema above. */
export const createAutomationSchema = z
  .discriminatedUnion("kind", [sourceAutomationSchema.strict(), issuesAutomationSchema.strict(), scheduleAutomationSchema.strict()])
  .meta({ id: "CreateAutomationRequest" });

export const updateAutomationSchema = z
  .strictObject({ paused: z.boolean() })
  .meta({ id: "UpdateAutomationRequest", description: "Pause or resume: a paused automation starts no job." });

export const automationSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    config: automationConfigSchema,
    paused: z.boolean(),
    nextRunAt: z.string().nullable().meta({ description: "A schedule's next firing (UTC); null for other kinds and while paused." }),
    lastFiredAt: z.string().nullable(),
    lastOutcome: z.string().nullable().meta({ description: "What its last firing did: the job it started, the PR it followed up on, or why it started none." }),
    createdAt: z.string(),
  })
  .meta({ id: "Automation" });
export type Automation = z.infer<typeof automationSchema>;
export const automationListSchema = z.object({ automations: z.array(automationSchema) }).meta({ id: "AutomationList" });
