import { z } from "zod";
import { createJobBodySchema, idempotencyKeySchema, jobListQuerySchema, promptBodySchema, type AgentJob } from "../../shared/api-schemas.js";
import { IdempotencyKeyReusedError } from "../domain/errors.js";
import { wellFormedIdOf } from "../domain/ids.js";
import type { MissingAccess } from "../forges/forge.js";
import { approve, cancel, sendMessage, startJob } from "../domain/jobs/entrance.js";
import { getJob, listJobs } from "../domain/jobs/queries.js";
import type { McpTool } from "./mcp-tool.js";
import { objectJsonSchema, queryToolInput, validArguments, validQueryArguments } from "./tool-schemas.js";
import { forgeWords } from "../../shared/forge-words.js";

// The agent-job tools: each does what its REST endpoint does (docs/api.md), through the same domain
// functions, and answers with the same body.

export const jobIdArgument = z.object({ id: z.string().meta({ description: "The job's id (from create_job or list_jobs)." }) });
const LIST_FIELDS = ["status", "limit", "offset"] as const;


/** The id argument; a malformed one names no job (not found), as in a REST path. */
export function jobIdOf(args: Record<string, unknown>): string {
  return wellFormedIdOf(validArguments(jobIdArgument, args).id, "Job");
}

/** One line a person reads in the client's transcript. */
export function describeJob(job: AgentJob): string {
  const where = `${job.source.repository.replace(/^https?:\/\/[^/]+\//, "")} on ${job.source.ref}`;
  const { change } = forgeWords(job.forge);
  const pr = job.prLink ? `${change} ${job.prLink}` : `no ${change} yet`;
  return `Job ${job.id} is ${job.status} (${where}); ${pr}${job.status === "failed" && job.error ? `; error: ${job.error}` : ""}.${waitingText(job)}`;
}

/** What a waiting job asks of the user, and which tool gives it. */
function waitingText(job: AgentJob): string {
  if (job.waitingFor === "approval") return ` It waits for approval of its plan (approve_plan carries it out; send_message revises it):\n${job.plan ?? ""}`;
  if (job.waitingFor === "answer") return ` It waits for an answer to its question (send_message answers it):\n${job.question ?? ""}`;
  return "";
}

/** A GitHub job is created (the contract) but cannot run without the App; the assistant should say so at once, as the CLI does. A GitLab job runs without it. */
const missingWarning = (missing: MissingAccess | null) =>
  missing ? ` Warning: this Inkwell server has no ${missing.what} yet, so the job will fail without running. The operator sets it up at ${missing.setupUrl}; then send_message to the job runs it.` : "";

const createJobInput = createJobBodySchema.extend({ idempotencyKey: idempotencyKeySchema.optional() });
const messageInput = jobIdArgument.extend(promptBodySchema.shape);

export const jobTools: McpTool[] = [
  {
    name: "create_job",
    scope: "jobs",
    title: "Create a docs job",
    description:
      "Hand an instruction to Inkwell's docs agent: it edits the project's docs repository in the repository's CI (a GitHub Actions workflow run, or a GitLab pipeline) and opens a pull request (a merge request on GitLab). Returns the job (status active); poll it with get_job. The same idempotencyKey with the same prompt returns the job it first created.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    inputSchema: objectJsonSchema(createJobInput, "input"),
    async run(args, ctx) {
      const { idempotencyKey, prompt, ...options } = validArguments(createJobInput, args);
      const { services, projectId } = ctx;
      const { job, replayed } = await startJob(services, { projectId, prompt, idempotencyKey: idempotencyKey ?? null, options }).catch((error: unknown) => {
          // The domain words it for REST's header; here the key is an argument.
          throw error instanceof IdempotencyKeyReusedError ? new IdempotencyKeyReusedError(error.message.replace(/Idempotency-Key/g, "idempotencyKey")) : error;
        });
      return { body: job, text: `${replayed ? "Already created with this idempotencyKey: " : "Created. "}${describeJob(job)}${missingWarning(services.forges[job.forge].missing)}` };
    },
  },
  {
    name: "get_job",
    scope: "jobs",
    title: "Get a docs job",
    description: "A job's status, pull request (or merge request) link, summary, files changed, validation and usage. Poll it until the status is completed, failed or archived.",
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: objectJsonSchema(jobIdArgument, "input"),
    async run(args, { services, projectId }) {
      const job = await getJob(services.db, projectId, jobIdOf(args));
      return { body: job, text: describeJob(job) };
    },
  },
  {
    name: "send_message",
    scope: "jobs",
    title: "Send a follow-up to a docs job",
    description:
      "A follow-up instruction for a job: a finished job runs again on the same branch and pull request (merge request on GitLab); an active one takes it in its next run. A job waiting for an answer takes it as the answer, one waiting for its plan's approval as what to change in the plan. A job whose pull request or merge request was closed (archived) refuses it.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    inputSchema: objectJsonSchema(messageInput, "input"),
    async run(args, ctx) {
      const { id, prompt } = validArguments(messageInput, args);
      const jobId = wellFormedIdOf(id, "Job");
      const { services, projectId } = ctx;
      const { job, dispatched } = await sendMessage(services, { projectId, jobId, prompt, source: "api" });
      return { body: job, text: `${dispatched ? "Sent; a new run starts." : "Queued for the job's next run."} ${describeJob(job)}` };
    },
  },
  {
    name: "list_jobs",
    scope: "jobs",
    title: "List docs jobs",
    description: "The project's jobs, newest first, a page at a time (hasMore says whether another page follows).",
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: queryToolInput(jobListQuerySchema, LIST_FIELDS),
    async run(args, { services, projectId }) {
      const query = validQueryArguments(jobListQuerySchema, LIST_FIELDS, args);
      const page = await listJobs(services.db, projectId, query);
      const counts = page.jobs.length === 0 ? "No jobs" : `${page.jobs.length} job${page.jobs.length === 1 ? "" : "s"}`;
      return { body: page, text: `${counts}${query.status ? ` ${query.status}` : ""} from offset ${query.offset}${page.hasMore ? "; more follow" : ""}.` };
    },
  },
  {
    name: "approve_plan",
    scope: "jobs",
    title: "Approve a docs job's plan",
    description: "Approves the plan a job waits with (waitingFor approval): the agent carries it out and opens the pull request (merge request on GitLab). To change the plan instead, use send_message. A job not waiting for approval is an error.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    inputSchema: objectJsonSchema(jobIdArgument, "input"),
    async run(args, { services, projectId }) {
      const job = await approve(services, { projectId, jobId: jobIdOf(args), cause: "api" });
      return { body: job, text: `Approved; the run that carries out the plan starts. ${describeJob(job)}` };
    },
  },
  {
    name: "cancel_job",
    scope: "jobs",
    title: "Cancel a docs job",
    description: "Stops an active job: it becomes failed, and a running agent stops without pushing. A job that is not active is returned as it is.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    inputSchema: objectJsonSchema(jobIdArgument, "input"),
    async run(args, { services, projectId }) {
      const jobId = jobIdOf(args);
      const { job, cancelled } = await cancel(services, { projectId, jobId, cause: "api" });
      return { body: job, text: `${cancelled ? "Cancelled." : "Not active, so nothing to cancel."} ${describeJob(job)}` };
    },
  },
];
