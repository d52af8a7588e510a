import { describe, expect, it } from "vitest";
import { gitLabEventOf } from "../../../../../src/app/forges/gitlab/webhook-events.js";

const project = { id: 42, web_url: "https://gitlab.example.com/acme/docs" };
const user = { id: 7, username: "dana", name: "Dana" };
const mrHook = (action: string, state: string, projectId = 42) => ({ object_kind: "merge_request", user, project: { ...project, id: projectId }, object_attributes: { iid: 3, action, state, source_branch: "inkwell/abc" } });
const note = (attributes: Record<string, unknown>, extra: Record<string, unknown> = { merge_request: { iid: 3 } }) => ({
  object_kind: "note",
  user,
  project,
  object_attributes: { id: 900, note: "@bot fix it", noteable_type: "MergeRequest", system: false, action: "create", ...attributes },
  ...extra,
});

describe("what a GitLab delivery means (gitLabEventOf)", () => {
  it("a merge request merged or closed, and nothing for its other actions; another project's merge only (a linked source's)", () => {
    expect(gitLabEventOf("Merge Request Hook", mrHook("merge", "merged"), "p1", 42)).toEqual({ type: "merge_request_closed", projectId: "p1", iid: 3, sourceBranch: "inkwell/abc", merged: true });
    expect(gitLabEventOf("Merge Request Hook", mrHook("close", "closed"), "p1", 42)).toMatchObject({ merged: false });
    expect(gitLabEventOf("Merge Request Hook", mrHook("update", "opened"), "p1", 42)).toEqual({ ignored: "merge request update" });
    // A merge into the default branch names the commit that landed (robots.txt is read there); into another branch, none.
    const intoMain = { ...mrHook("merge", "merged"), project: { ...project, default_branch: "main" }, object_attributes: { ...mrHook("merge", "merged").object_attributes, target_branch: "main", merge_commit_sha: "f".repeat(40) } };
    expect(gitLabEventOf("Merge Request Hook", intoMain, "p1", 42)).toMatchObject({ merged: true, defaultBranchMergeSha: "f".repeat(40) });
    const intoRelease = { ...intoMain, object_attributes: { ...intoMain.object_attributes, target_branch: "release-1" } };
    expect(gitLabEventOf("Merge Request Hook", intoRelease, "p1", 42)).not.toHaveProperty("defaultBranchMergeSha");
    // A linked source project's webhook delivers here too: its merge, with what the job's instruction needs.
    expect(gitLabEventOf("Merge Request Hook", mrHook("merge", "merged", 99), "p1", 42)).toEqual({ ignored: "a merge without its project path, commit, URL or author" });
    const sourceMerge = mrHook("merge", "merged", 99);
    const complete = {
      ...sourceMerge,
      project: { ...sourceMerge.project, path_with_namespace: "acme/api", default_branch: "main" },
      object_attributes: { ...sourceMerge.object_attributes, target_branch: "main", title: "Add --since", url: "https://gitlab.example.com/acme/api/-/merge_requests/3", merge_commit_sha: "d".repeat(40), author_id: 8 },
      labels: [{ title: "docs" }],
    };
    expect(gitLabEventOf("Merge Request Hook", complete, "p1", 42)).toEqual({
      type: "source_merged",
      projectId: "p1",
      sourceProjectId: 99,
      sourcePath: "acme/api",
      iid: 3,
      title: "Add --since",
      description: "",
      url: "https://gitlab.example.com/acme/api/-/merge_requests/3",
      mergeSha: "d".repeat(40),
      targetBranch: "main",
      defaultBranch: "main",
      labels: ["docs"],
      authorId: 8,
    });
    // A fast-forward merge has no merge commit: its last commit stands for it.
    const fastForward = { ...complete, object_attributes: { ...complete.object_attributes, merge_commit_sha: null, last_commit: { id: "e".repeat(40) } } };
    expect(gitLabEventOf("Merge Request Hook", fastForward, "p1", 42)).toMatchObject({ type: "source_merged", mergeSha: "e".repeat(40) });
    expect(gitLabEventOf("Merge Request Hook", mrHook("close", "closed", 99), "p1", 42)).toEqual({ ignored: "another project's merge request close" });
    expect(gitLabEventOf("Merge Request Hook", { object_kind: "merge_request" }, "p1", 42)).toEqual({ ignored: "not a merge request event" });
  });

  it("a note on a merge request, with a diff note's file and line; system notes and edits are nothing", () => {
    expect(gitLabEventOf("Note Hook", note({}), "p1", 42)).toEqual({ type: "note", projectId: "p1", noteId: 900, body: "@bot fix it", author: { id: 7, username: "dana" }, iid: 3, position: null });
    expect(gitLabEventOf("Note Hook", note({ type: "DiffNote", position: { old_path: "a.md", new_path: "b.md", old_line: 4, new_line: null } }), "p1", 42)).toMatchObject({ position: { path: "b.md", line: 4 } });
    // When it was written, as GitLab writes it in hooks: an `approve` speaks only to a plan shown before.
    expect(gitLabEventOf("Note Hook", note({ created_at: "2026-11-28 03:10:00 UTC" }), "p1", 42)).toMatchObject({ writtenAt: "2026-11-28 03:10:00 UTC" });
    expect(gitLabEventOf("Note Hook", note({ system: true }), "p1", 42)).toEqual({ ignored: "a system note" });
    expect(gitLabEventOf("Note Hook", note({ action: "update" }), "p1", 42)).toEqual({ ignored: "note update" });
    expect(gitLabEventOf("Note Hook", note({ noteable_type: "Commit" }, {}), "p1", 42)).toEqual({ ignored: "a note on a Commit" });
  });

  it("a pipeline started through the API that ended failed, canceled or skipped; its other statuses and other projects' are nothing", () => {
    const pipeline = (status: string, source: string | undefined = "api", projectId = 42, url: string | undefined = `${project.web_url}/-/pipelines/77`) => ({
      object_kind: "pipeline",
      project: { ...project, id: projectId },
      object_attributes: { id: 77, status, source, url, variables: [] },
    });
    expect(gitLabEventOf("Pipeline Hook", pipeline("failed"), "p1", 42)).toEqual({ type: "pipeline_failed", projectId: "p1", pipelineId: 77, status: "failed", url: `${project.web_url}/-/pipelines/77` });
    expect(gitLabEventOf("Pipeline Hook", pipeline("canceled", "trigger"), "p1", 42)).toMatchObject({ type: "pipeline_failed", status: "canceled" });
    expect(gitLabEventOf("Pipeline Hook", pipeline("skipped", "api", 42, undefined), "p1", 42)).toMatchObject({ status: "skipped", url: `${project.web_url}/-/pipelines/77` });
    for (const status of ["created", "pending", "running", "success", "manual"]) expect(gitLabEventOf("Pipeline Hook", pipeline(status), "p1", 42)).toEqual({ ignored: `pipeline ${status}` });
    expect(gitLabEventOf("Pipeline Hook", pipeline("failed", "api", 99), "p1", 42)).toEqual({ ignored: "another project's pipeline" });
    expect(gitLabEventOf("Pipeline Hook", { object_kind: "pipeline" }, "p1", 42)).toEqual({ ignored: "not a pipeline event" });
  });

  it("a pipeline of the project's own CI (a push, a merge request) that ended names its commit: maybe a job's checks; still running, or without its commit, nothing", () => {
    const sha = "bcbb5ec396a2c0f828686f14fac9b80b780504f2";
    const pipeline = (status: string, source: string, commit: string | null = sha) => ({
      object_kind: "pipeline",
      project,
      object_attributes: { id: 78, status, source, ref: "inkwell/abc", sha: commit, url: `${project.web_url}/-/pipelines/78`, variables: [] },
      merge_request: source === "merge_request_event" ? { id: 1, iid: 3, source_branch: "inkwell/abc", target_branch: "main", state: "opened" } : null,
    });
    expect(gitLabEventOf("Pipeline Hook", pipeline("failed", "merge_request_event"), "p1", 42)).toEqual({ type: "pipeline_finished", projectId: "p1", pipelineId: 78, sha, status: "failed" });
    for (const status of ["success", "canceled", "skipped", "manual"]) expect(gitLabEventOf("Pipeline Hook", pipeline(status, "push"), "p1", 42)).toMatchObject({ type: "pipeline_finished", status });
    for (const status of ["created", "pending", "running"]) expect(gitLabEventOf("Pipeline Hook", pipeline(status, "push"), "p1", 42)).toEqual({ ignored: `pipeline ${status}` });
    expect(gitLabEventOf("Pipeline Hook", pipeline("failed", "push", null), "p1", 42)).toEqual({ ignored: "a pipeline started by push without its commit" });
  });

  it("an issue's added labels (all on open, the change's new ones on update) and a note on an issue", () => {
    const issue = (action: string, labels: string[], previous?: string[]) => ({
      object_kind: "issue",
      user,
      project,
      object_attributes: { iid: 12, title: "T", description: null, url: `${project.web_url}/-/issues/12`, action },
      labels: labels.map((title) => ({ title })),
      changes: previous ? { labels: { previous: previous.map((title) => ({ title })), current: labels.map((title) => ({ title })) } } : {},
    });
    expect(gitLabEventOf("Issue Hook", issue("open", ["docs", "inkwell"]), "p1", 42)).toMatchObject({ type: "issue_labeled", iid: 12, description: "", labels: ["docs", "inkwell"] });
    expect(gitLabEventOf("Issue Hook", issue("update", ["docs", "inkwell"], ["docs"]), "p1", 42)).toMatchObject({ labels: ["inkwell"] });
    expect(gitLabEventOf("Issue Hook", issue("update", ["docs"], ["docs", "inkwell"]), "p1", 42)).toEqual({ ignored: "issue update added no label" });
    expect(gitLabEventOf("Note Hook", note({ noteable_type: "Issue" }, { issue: { iid: 12, title: "T", description: "D" } }), "p1", 42)).toEqual({
      type: "issue_note",
      projectId: "p1",
      iid: 12,
      title: "T",
      description: "D",
      url: `${project.web_url}/-/issues/12`,
      author: { id: 7, username: "dana" },
      noteId: 900,
      body: "@bot fix it",
    });
    expect(gitLabEventOf("Push Hook", {}, "p1", 42)).toEqual({ ignored: "Push Hook is not used" });
  });
});
