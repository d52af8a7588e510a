import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { steps } from "../../helpers/fake-model.js";

let h: ActionHarness;
beforeAll(async () => {
  h = await startActionHarness("mintlify", steps({ text: "unused" }));
});
afterAll(() => h.close());

describe("the Action and the service exchange releases at claim", () => {
  it("an Action of another major release is refused before it touches anything, and the job says which tag to pin", async () => {
    h.model.setScript(steps({ text: "unused" }));
    const dispatched = await h.createJob("Fix the typos");
    await expect(h.run(dispatched, { actionVersion: "99.0.0" })).rejects.toThrow(/refused claim \(400\): This Inkwell server is \d+\.\d+\.\d+ and serves the Action v\d+; this run uses the Action 99\.0\.0/);
    const job = await h.job(dispatched.jobId);
    expect(job).toMatchObject({ status: "failed", error: expect.stringMatching(/Pin the workflow to `uses: <owner>\/inkwell@v\d+`/) });
    expect(h.model.requests).toHaveLength(0);
    expect(git(h.remote, "branch", "--list", `inkwell/${dispatched.jobId}`)).toBe("");
  });

  it("a service of another major release that still hands out the job is stopped by the Action itself", async () => {
    const dispatched = await h.createJob("Fix the typos");
    const claimFromTheFuture: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).endsWith("/v1/runner/claim") || !response.ok) return response;
      const body = { ...((await response.json()) as object), serviceVersion: "99.0.0" };
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    };
    const outcome = await h.run(dispatched, { inkwell: h.client(claimFromTheFuture) });
    expect(outcome).toMatchObject({ status: "failed", error: expect.stringMatching(/^This Inkwell server is 99\.0\.0 and serves the Action v99/) });
    expect(await h.job(dispatched.jobId)).toMatchObject({ status: "failed", error: outcome.error });
    expect(git(h.remote, "branch", "--list", `inkwell/${dispatched.jobId}`)).toBe("");
  });

  it("an Action of the same major release claims as before", async () => {
    h.model.setScript(steps({ text: "Nothing needs changing" }));
    const dispatched = await h.createJob("Check the docs");
    const outcome = await h.run(dispatched);
    expect(outcome.status).toBe("completed");
  });
});
