import { describe, expect, it } from "vitest";
import { ApiClient } from "../../../src/cli/api-client.js";

const answering = (status: number, body: unknown) =>
  new ApiClient({ baseUrl: "http://localhost:3000", fetch: (async () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })) as unknown as typeof fetch });

describe("the CLI's API client", () => {
  it("says a validation failure once: details the error already lists are not repeated", async () => {
    const client = answering(400, { error: "Invalid query parameters: dateFrom: must not be after dateTo", details: [{ message: "dateFrom: must not be after dateTo", field: "dateFrom" }] });
    await expect(client.request("GET", "/x", { kind: "project", key: "k" })).rejects.toThrow(/^400: Invalid query parameters: dateFrom: must not be after dateTo$/);
    const extra = answering(409, { error: "Conflict", details: [{ message: "the job is archived" }] });
    await expect(extra.request("GET", "/x", { kind: "project", key: "k" })).rejects.toThrow("409: Conflict\n  - the job is archived");
  });

  it("words a key of another project in the CLI's terms: --project, not the API's path", async () => {
    const client = answering(403, { error: "This API key belongs to project p_key, not p_asked: use p_key in the path, or a key of p_asked" });
    await expect(client.request("GET", "/x", { kind: "project", key: "k" })).rejects.toThrow(
      /^403: This API key belongs to project p_key, not p_asked: use --project p_key \(or INKWELL_PROJECT\), or a key of p_asked$/,
    );
  });

  it("tells whether the server has a GitHub App, without a credential", async () => {
    expect(await answering(200, { githubApp: { configured: false, setupUrl: "http://localhost:3000/dashboard/github-app" } }).serverInfo()).toEqual({
      githubApp: { configured: false, setupUrl: "http://localhost:3000/dashboard/github-app" },
    });
    expect(await answering(500, {}).serverInfo()).toBeNull();
  });
});
