import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cluster } from "../helpers/cluster.js";
import { callTool, connectMcp, firstText } from "../helpers/mcp-client.js";
import { processStore, type ProcessStore } from "../helpers/process.js";
import { storeKind } from "../helpers/store.js";

const TOKEN = "mcp-cluster-operator-token-0042";

/**
 * Two server processes over one PostgreSQL behind no sticky balancer: one MCP client's requests go
 * to each in turn (its fetch alternates between them), and the conversation holds together.
 */
describe.skipIf(storeKind() !== "postgres")("MCP across instances", () => {
  let store: ProcessStore;
  let cluster: Cluster;
  const dataDirs: string[] = [];
  const served: number[] = [];
  let client: Client;
  let projectId = "";
  let key = "";
  let keyId = "";

  beforeAll(async () => {
    store = await processStore();
    dataDirs.push(mkdtempSync(path.join(tmpdir(), "inkwell-mcp-")));
    cluster = await Cluster.start([store.dataDir, dataDirs[0] as string].map((dataDir) => ({ ...store.env, DATA_DIR: dataDir, INKWELL_ADMIN_TOKEN: TOKEN })));
    const project = await cluster.call(0, "POST", "/admin/projects", { token: TOKEN, body: { repository: "acme/cluster-docs" } });
    projectId = project.body.id;
    const created = await cluster.call(1, "POST", `/admin/projects/${projectId}/keys`, { token: TOKEN, body: { name: "mcp" } });
    ({ key, id: keyId } = created.body);
    // A balancer without affinity: each request to the next instance, whatever the one before was.
    let next = 0;
    const alternating: typeof fetch = (input, init) => {
      const instance = next++ % cluster.size;
      served.push(instance);
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(new URL(url.pathname + url.search, cluster.url(instance)), init);
    };
    client = await connectMcp(cluster.url(0), key, { fetch: alternating });
  });

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    const errors = cluster?.errorLines() ?? [];
    if (errors.length > 0) process.stderr.write(`server errors:\n${errors.join("\n")}\n`);
    await cluster?.stop();
    await store?.cleanup();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("creates, polls, follows up and cancels a job with each request on the other instance, and a revocation on one is refused by both", async () => {
    const created = await callTool(client, "create_job", { prompt: "Document the cluster setup", idempotencyKey: "cluster-1" });
    const jobId = created.structuredContent.id;
    const replayed = await callTool(client, "create_job", { prompt: "Document the cluster setup", idempotencyKey: "cluster-1" });
    expect(replayed.structuredContent.id).toBe(jobId);

    for (let i = 0; i < 4; i++) {
      const polled = await callTool(client, "get_job", { id: jobId });
      expect(polled.isError, firstText(polled)).toBeFalsy();
      expect(polled.structuredContent.id).toBe(jobId);
    }
    // Without a GitHub App the run fails; a follow-up on either instance starts the next one.
    const followed = await callTool(client, "send_message", { id: jobId, prompt: "And the load balancer" });
    expect(followed.isError, firstText(followed)).toBeFalsy();
    const listed = await callTool(client, "list_jobs");
    expect(listed.structuredContent.jobs.map((j: { id: string }) => j.id)).toEqual([jobId]);
    await callTool(client, "cancel_job", { id: jobId });
    const viaRest = await cluster.call(1, "GET", `/v2/agent/${projectId}/job/${jobId}`, { token: key });
    expect((await callTool(client, "get_job", { id: jobId })).structuredContent).toEqual(viaRest.body);

    // Both instances answered the one client's requests.
    expect(new Set(served)).toEqual(new Set([0, 1]));

    expect((await cluster.call(0, "DELETE", `/admin/projects/${projectId}/keys/${keyId}`, { token: TOKEN })).status).toBe(200);
    await expect(callTool(client, "get_job", { id: jobId })).rejects.toMatchObject({ code: 401 });
    await expect(callTool(client, "get_job", { id: jobId })).rejects.toMatchObject({ code: 401 });
  });
});
