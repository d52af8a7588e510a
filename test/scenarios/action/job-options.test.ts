import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { NOT_A_COLLABORATOR } from "../../helpers/fake-github-rest.js";
import { steps } from "../../helpers/fake-model.js";
import { ADMIN_TOKEN } from "../../helpers/server.js";

let h: ActionHarness;
beforeAll(async () => {
  h = await startActionHarness("mintlify", steps({ text: "unused" }));
});
afterAll(() => h.close());

const PAGE = "---\ntitle: Release notes\n---\n\nWhat changed in 1.x.\n";
const writePage = () =>
  steps(
    { tools: [{ name: "write_file", args: { path: "release-notes.mdx", content: PAGE, reason: "The page asked for." } }] },
    { tools: [{ name: "edit_file", args: { path: "docs.json", find: '"pages": ["guides/webhooks"]', replace: '"pages": ["guides/webhooks", "release-notes"]', reason: "Lists it." } }] },
    { text: "Add release notes\n\nA page for the 1.x line." },
  );

describe("per-job options reach GitHub and the model", () => {
  it("base branch, draft, an allowed model, labels and reviewers (users and a team) of one job", async () => {
    git(h.remote, "branch", "release-1.x", "main");
    const allowed = await h.server.call("PATCH", `/admin/projects/${h.projectId}`, { token: ADMIN_TOKEN, body: { allowedModels: ["openai-compatible/scripted-large"] } });
    expect(allowed.body.allowedModels).toEqual(["openai-compatible/scripted-large"]);
    h.model.setScript(writePage());

    const dispatched = await h.createJob("Add release notes for 1.x", {
      baseBranch: "release-1.x",
      draft: true,
      model: "openai-compatible/scripted-large",
      labels: ["docs", "from-inkwell"],
      reviewers: ["alice", "acme/docs-team"],
    });
    const created = await h.job(dispatched.jobId);
    expect(created).toMatchObject({ baseBranch: "release-1.x", draft: true, model: "openai-compatible/scripted-large", labels: ["docs", "from-inkwell"], reviewers: ["alice", "acme/docs-team"] });

    const outcome = await h.run(dispatched);
    expect(outcome.status).toBe("completed");
    // The job's model wins over the workflow's `model` input (openai-compatible/scripted here).
    expect(h.model.requests.every((request) => request.model === "scripted-large")).toBe(true);
    const pr = h.github.pulls.at(-1);
    expect(pr).toMatchObject({ base: "release-1.x", head: `inkwell/${dispatched.jobId}`, draft: true, labels: ["docs", "from-inkwell"], requestedReviewers: ["alice"], requestedTeams: ["docs-team"] });
    expect(git(h.remote, "merge-base", "--is-ancestor", "release-1.x", `inkwell/${dispatched.jobId}`)).toBe("");
  });

  it("a reviewer GitHub refuses does not fail the run: the PR opens and the log says why", async () => {
    h.model.setScript(writePage());
    const dispatched = await h.createJob("Add release notes again", { reviewers: [NOT_A_COLLABORATOR] });
    const outcome = await h.run(dispatched);
    expect(outcome.status).toBe("completed");
    expect(outcome.logs.join("\n")).toMatch(/Could not request reviews on pull request #\d+: Reviews may only be requested from collaborators/);
    expect(h.github.pulls.at(-1)).toMatchObject({ draft: false, requestedReviewers: [] });
  });

  it("refuses a model outside the project's allow-list, naming the allowed ones, and bad options naming the field", async () => {
    const create = (body: Record<string, unknown>) => h.server.call("POST", `/v2/agent/${h.projectId}/job`, { token: h.apiKey, body: { prompt: "x", ...body } });
    const model = await create({ model: "anthropic/claude-opus-4-1" });
    expect(model.status).toBe(400);
    expect(model.body.error).toMatch(/^model: this project's jobs may use .+, openai-compatible\/scripted-large$/);
    expect(model.body.details).toEqual([{ field: "model", message: expect.stringContaining("must be one of") }]);
    for (const [body, field] of [
      [{ baseBranch: "../main" }, "baseBranch"],
      [{ draft: "yes" }, "draft"],
      [{ labels: ["x".repeat(51)] }, "labels"],
      [{ reviewers: ["not a login"] }, "reviewers"],
    ] as const) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toContain(field);
    }
  });
});

describe("the pull request follows validation", () => {
  it("a follow-up whose validation fails turns a ready PR into a draft; a later passing one makes it ready again", async () => {
    h.model.setScript(writePage());
    const first = await h.createJob("Add release notes, the third time");
    expect((await h.run(first)).status).toBe("completed");
    const pr = h.github.pulls.find((candidate) => candidate.head === `inkwell/${first.jobId}`);
    expect(pr).toMatchObject({ draft: false, draftChanges: [] });

    // The follow-up writes a page that never compiles, through every repair round.
    h.model.setScript((request) =>
      request.messages.at(-1)?.role === "tool"
        ? { text: "Break it\n\nAn attempt." }
        : { tools: [{ name: "write_file", args: { path: "release-notes.mdx", content: "---\ntitle: Release notes\n---\n\n{oops\n", reason: "Attempt." } }] },
    );
    expect((await h.run(await h.followUp(first.jobId, "Rewrite the intro"), { repairRounds: 1 })).status).toBe("completed");
    expect(pr).toMatchObject({ draft: true, draftChanges: [true] });
    expect((await h.job(first.jobId)).validation).toMatchObject({ passed: false, problems: [expect.objectContaining({ file: "release-notes.mdx" })] });

    h.model.setScript(
      steps(
        { tools: [{ name: "write_file", args: { path: "release-notes.mdx", content: PAGE, reason: "Fixed." } }] },
        { text: "Fix the release notes\n\nThe page compiles again." },
      ),
    );
    expect((await h.run(await h.followUp(first.jobId, "Fix it"))).status).toBe("completed");
    expect(pr).toMatchObject({ draft: false, draftChanges: [true, false] });
    expect((await h.job(first.jobId)).validation).toEqual({ passed: true, problems: [] });
  });
});
