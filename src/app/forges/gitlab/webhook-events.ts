import { z } from "zod";

/**
 * What a GitLab webhook delivery means for jobs, small enough to queue: a merge request merged or
 * closed, a note on a merge request or an issue, an issue labelled, a pipeline Inkwell started ended
 * unsuccessfully, a pipeline of the project's own CI ended. Payload shapes: docs.gitlab.com/user/project/integrations/
 * webhook_events (only the fields read here are required; GitLab sends many more).
 */
const issueFields = { projectId: z.string(), iid: z.int(), title: z.string(), description: z.string(), url: z.string(), author: z.object({ id: z.int(), username: z.string() }) };

export const gitLabEventSchema = z.discriminatedUnion("type", [
  /** An issue of the docs project got a label (the issues automation's, maybe). */
  z.object({ type: z.literal("issue_labeled"), ...issueFields, labels: z.array(z.string()) }),
  /** A note on an issue of the docs project (a mention may start or follow up on its job). */
  z.object({ type: z.literal("issue_note"), ...issueFields, noteId: z.int(), body: z.string(), writtenAt: z.string().optional() }),
  /** A pipeline Inkwell may have started ended failed, canceled or skipped. */
  z.object({ type: z.literal("pipeline_failed"), projectId: z.string(), pipelineId: z.int(), status: z.string(), url: z.string() }),
  /** A pipeline of the project's own CI (a push, a merge request) ended: maybe the verdict of a job's checks on that commit. */
  z.object({ type: z.literal("pipeline_finished"), projectId: z.string(), pipelineId: z.int(), sha: z.string(), status: z.string() }),
  z.object({
    type: z.literal("merge_request_closed"),
    projectId: z.string(),
    iid: z.int(),
    sourceBranch: z.string(),
    merged: z.boolean(),
    /** A merge into the project's default branch: the commit that landed (robots.txt from the repository reads it). */
    defaultBranchMergeSha: z.string().optional(),
  }),
  /** A merge request merged in a linked source project (its webhook is the docs project's): maybe a source automation's job. */
  z.object({
    type: z.literal("source_merged"),
    projectId: z.string(),
    sourceProjectId: z.int(),
    sourcePath: z.string(),
    iid: z.int(),
    title: z.string(),
    description: z.string(),
    url: z.string(),
    mergeSha: z.string(),
    targetBranch: z.string(),
    defaultBranch: z.string().nullable(),
    labels: z.array(z.string()),
    /** Who wrote the change (its author, not who merged it): a bot's merges start no job. */
    authorId: z.int(),
  }),
  z.object({
    type: z.literal("note"),
    projectId: z.string(),
    noteId: z.int(),
    body: z.string(),
    author: z.object({ id: z.int(), username: z.string() }),
    iid: z.int(),
    /** Where a diff note was left: the file and line (new side, else old). */
    position: z.object({ path: z.string(), line: z.int().nullable() }).nullable(),
    /** GitLab's created_at: an `approve` speaks only to a plan shown before it was written. Absent on older queued events. */
    writtenAt: z.string().optional(),
  }),
]);
export type GitLabEvent = z.infer<typeof gitLabEventSchema>;

const userSchema = z.looseObject({ id: z.int(), username: z.string() });

const mergeRequestHookSchema = z.looseObject({
  object_kind: z.literal("merge_request"),
  user: userSchema.nullish(),
  project: z.looseObject({ id: z.int(), path_with_namespace: z.string().nullish(), default_branch: z.string().nullish() }),
  object_attributes: z.looseObject({
    iid: z.int(),
    action: z.string().optional(),
    state: z.string(),
    source_branch: z.string(),
    target_branch: z.string().nullish(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    url: z.string().nullish(),
    merge_commit_sha: z.string().nullish(),
    squash_commit_sha: z.string().nullish(),
    last_commit: z.looseObject({ id: z.string() }).nullish(),
    author_id: z.int().nullish(),
  }),
  labels: z.array(z.looseObject({ title: z.string() })).nullish(),
});

const positionSchema = z.looseObject({ new_path: z.string().nullish(), old_path: z.string().nullish(), new_line: z.int().nullish(), old_line: z.int().nullish() });

const noteHookSchema = z.looseObject({
  object_kind: z.literal("note"),
  user: userSchema,
  project: z.looseObject({ id: z.int() }),
  object_attributes: z.looseObject({
    id: z.int(),
    note: z.string(),
    noteable_type: z.string(),
    system: z.boolean().nullish(),
    action: z.string().nullish(),
    position: positionSchema.nullish(),
    created_at: z.string().nullish(),
  }),
  merge_request: z.looseObject({ iid: z.int() }).nullish(),
  issue: z.looseObject({ iid: z.int(), title: z.string(), description: z.string().nullish() }).nullish(),
});

const pipelineHookSchema = z.looseObject({
  object_kind: z.literal("pipeline"),
  project: z.looseObject({ id: z.int(), web_url: z.string() }),
  object_attributes: z.looseObject({ id: z.int(), status: z.string(), source: z.string().nullish(), url: z.string().nullish(), sha: z.string().nullish() }),
});

/** Pipeline statuses that end it without its jobs succeeding; only these can mean a run that will never report. */
const FAILED_PIPELINE_STATUSES = new Set(["failed", "canceled", "skipped"]);
/** The sources of pipelines Inkwell starts (the pipeline API; a trigger token on instances set up so). */
const DISPATCHED_PIPELINE_SOURCES = new Set(["api", "trigger"]);
/** Statuses a pipeline stays in once it ended (a manual one waits for a person: nothing for the agent). */
const FINISHED_PIPELINE_STATUSES = new Set(["success", "failed", "canceled", "skipped", "manual"]);

const labelsSchema = z.array(z.looseObject({ title: z.string() })).nullish();

const issueHookSchema = z.looseObject({
  object_kind: z.literal("issue"),
  user: userSchema,
  project: z.looseObject({ id: z.int(), web_url: z.string() }),
  object_attributes: z.looseObject({ iid: z.int(), title: z.string(), description: z.string().nullish(), url: z.string(), action: z.string().nullish() }),
  labels: labelsSchema,
  changes: z.looseObject({ labels: z.looseObject({ previous: labelsSchema, current: labelsSchema }).nullish() }).nullish(),
});

/** The commit a merge put on the target branch; a fast-forward merge has no merge commit: the branch's last commit is what landed. */
const landedSha = (hook: z.infer<typeof mergeRequestHookSchema>): string | null => {
  const mr = hook.object_attributes;
  return mr.merge_commit_sha ?? mr.squash_commit_sha ?? mr.last_commit?.id ?? null;
};

/** A merge request of another project (a linked source project's webhook delivers here too): only a merge counts. */
function sourceMerged(hook: z.infer<typeof mergeRequestHookSchema>, projectId: string): GitLabEvent | { ignored: string } {
  const mr = hook.object_attributes;
  if (mr.action !== "merge") return { ignored: `another project's merge request ${mr.action ?? mr.state}` };
  const mergeSha = landedSha(hook);
  if (!hook.project.path_with_namespace || !mergeSha || !mr.url || !hook.user) return { ignored: "a merge without its project path, commit, URL or author" };
  return {
    type: "source_merged",
    projectId,
    sourceProjectId: hook.project.id,
    sourcePath: hook.project.path_with_namespace,
    iid: mr.iid,
    title: mr.title ?? "",
    description: mr.description ?? "",
    url: mr.url,
    mergeSha,
    targetBranch: mr.target_branch ?? "",
    defaultBranch: hook.project.default_branch ?? null,
    labels: (hook.labels ?? []).map((label) => label.title),
    // The merge request's author; the hook's user is who merged it.
    authorId: mr.author_id ?? hook.user.id,
  };
}

/** The event a delivery means, `null` with why when it means nothing for jobs; throws nothing on a payload of another shape. */
export function gitLabEventOf(eventHeader: string, payload: unknown, projectId: string, gitlabProjectId: number): GitLabEvent | { ignored: string } {
  if (eventHeader === "Merge Request Hook") {
    const hook = mergeRequestHookSchema.safeParse(payload);
    if (!hook.success) return { ignored: "not a merge request event" };
    if (hook.data.project.id !== gitlabProjectId) return sourceMerged(hook.data, projectId);
    const { action, state, iid, source_branch: sourceBranch } = hook.data.object_attributes;
    if (action !== "merge" && action !== "close") return { ignored: `merge request ${action ?? state}` };
    const landed = action === "merge" ? landedSha(hook.data) : null;
    const intoDefault = landed !== null && !!hook.data.project.default_branch && hook.data.object_attributes.target_branch === hook.data.project.default_branch;
    return { type: "merge_request_closed", projectId, iid, sourceBranch, merged: action === "merge", ...(intoDefault ? { defaultBranchMergeSha: landed } : {}) };
  }
  if (eventHeader === "Note Hook") {
    const hook = noteHookSchema.safeParse(payload);
    if (!hook.success) return { ignored: "not a note event" };
    const note = hook.data.object_attributes;
    if (hook.data.project.id !== gitlabProjectId) return { ignored: "another project's note" };
    if (note.noteable_type === "Issue" && hook.data.issue && note.action !== "update" && !note.system) {
      const { issue, user } = hook.data;
      const url = `${String((payload as { project?: { web_url?: unknown } }).project?.web_url ?? "")}/-/issues/${issue.iid}`;
      return { type: "issue_note", projectId, iid: issue.iid, title: issue.title, description: issue.description ?? "", url, author: { id: user.id, username: user.username }, noteId: note.id, body: note.note, ...(note.created_at ? { writtenAt: note.created_at } : {}) };
    }
    if (note.noteable_type !== "MergeRequest" || !hook.data.merge_request) return { ignored: `a note on a ${note.noteable_type}` };
    // An edited note was taken (or not) when it was written.
    if (note.action && note.action !== "create") return { ignored: `note ${note.action}` };
    if (note.system) return { ignored: "a system note" };
    const position = note.position;
    const path = position?.new_path ?? position?.old_path;
    return {
      type: "note",
      projectId,
      noteId: note.id,
      body: note.note,
      author: { id: hook.data.user.id, username: hook.data.user.username },
      iid: hook.data.merge_request.iid,
      position: path ? { path, line: position?.new_line ?? position?.old_line ?? null } : null,
      ...(note.created_at ? { writtenAt: note.created_at } : {}),
    };
  }
  if (eventHeader === "Pipeline Hook") {
    const hook = pipelineHookSchema.safeParse(payload);
    if (!hook.success) return { ignored: "not a pipeline event" };
    if (hook.data.project.id !== gitlabProjectId) return { ignored: "another project's pipeline" };
    const pipeline = hook.data.object_attributes;
    if (!DISPATCHED_PIPELINE_SOURCES.has(pipeline.source ?? "")) {
      // The project's own CI on a branch or a merge request: its end may be the verdict of a job's checks (gitlab/checks.ts).
      if (!FINISHED_PIPELINE_STATUSES.has(pipeline.status)) return { ignored: `pipeline ${pipeline.status}` };
      if (!pipeline.sha) return { ignored: `a pipeline started by ${pipeline.source ?? "an unnamed source"} without its commit` };
      return { type: "pipeline_finished", projectId, pipelineId: pipeline.id, sha: pipeline.sha, status: pipeline.status };
    }
    // GitLab sends one delivery per status change; only an unsuccessful end is news for a run Inkwell started.
    if (!FAILED_PIPELINE_STATUSES.has(pipeline.status)) return { ignored: `pipeline ${pipeline.status}` };
    const url = pipeline.url ?? `${hook.data.project.web_url}/-/pipelines/${pipeline.id}`;
    return { type: "pipeline_failed", projectId, pipelineId: pipeline.id, status: pipeline.status, url };
  }
  if (eventHeader === "Issue Hook") {
    const hook = issueHookSchema.safeParse(payload);
    if (!hook.success) return { ignored: "not an issue event" };
    if (hook.data.project.id !== gitlabProjectId) return { ignored: "another project's issue" };
    const issue = hook.data.object_attributes;
    const titles = (labels: z.infer<typeof labelsSchema>) => (labels ?? []).map((label) => label.title);
    // Labels it got now: on open, all of them; on an update, those the change added.
    const change = hook.data.changes?.labels;
    const added = issue.action === "open" ? titles(hook.data.labels) : change ? titles(change.current).filter((label) => !titles(change.previous).includes(label)) : [];
    if (added.length === 0) return { ignored: `issue ${issue.action ?? "event"} added no label` };
    return { type: "issue_labeled", projectId, iid: issue.iid, title: issue.title, description: issue.description ?? "", url: issue.url, author: { id: hook.data.user.id, username: hook.data.user.username }, labels: added };
  }
  return { ignored: `${eventHeader || "an unnamed event"} is not used` };
}
