import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import type { Dispatcher } from "../../src/app/dispatch/dispatcher.js";
import { listJobMessages } from "../../src/app/domain/jobs/messages.js";
import { drainTasks } from "../helpers/drain.js";
import { cliFor } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { startFakeSlack, type FakeSlack } from "../helpers/fake-slack.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { Visitor } from "../helpers/visitor.js";

// Socket Mode (docs/slack.md, "Receivers"): a server without a public address opens a WebSocket to
// Slack. Here a local WebSocket server speaks Slack's envelope protocol: hello, then events_api,
// interactive and slash_commands envelopes, each acknowledged by its envelope_id.

const dispatcher: Dispatcher = { dispatch: async () => ({ ok: true as const }) };

let t: TestServer;
let slack: FakeSlack;
let sockets: WebSocketServer;
let connection: WebSocket | null = null;
const acks: Array<{ envelope_id: string; payload?: Record<string, unknown> }> = [];
let projectId: string;

beforeAll(async () => {
  sockets = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise<void>((resolve) => sockets.once("listening", () => resolve()));
  sockets.on("connection", (socket, request) => {
    expect(request.url).toBe("/link/?ticket=test");
    connection = socket;
    socket.on("message", (data) => acks.push(JSON.parse(String(data))));
    socket.send(JSON.stringify({ type: "hello", num_connections: 1, debug_info: { host: "test", approximate_connection_time: 18060 }, connection_info: { app_id: "A1" } }));
  });
  slack = await startFakeSlack({ socketUrl: () => `ws://127.0.0.1:${(sockets.address() as AddressInfo).port}/link/?ticket=test` });
  // No PUBLIC_URL: a laptop or a private network.
  t = await startTestServer({ env: { INKWELL_SLACK_API_URL: slack.apiUrl }, dispatcher, taskWorkerOptions: { backoffBaseMs: 10, backoffCapMs: 50 } });
  ({ projectId } = await t.newProject("acme/socket-docs"));
  await t.call("PUT", `/admin/projects/${projectId}/slack/channels/CSOCK`, { token: ADMIN_TOKEN, body: {} });
});
afterAll(async () => {
  await t.close();
  await slack.close();
  for (const client of sockets.clients) client.terminate();
  await new Promise<void>((resolve) => sockets.close(() => resolve()));
});

const send = (envelope: Record<string, unknown>) => (connection as WebSocket).send(JSON.stringify(envelope));
const ackOf = (envelopeId: string) => eventually(`the ack of ${envelopeId}`, () => acks.find((ack) => ack.envelope_id === envelopeId));
const jobOfThread = async (threadTs: string) => (await t.store.db.query<{ job_id: string }>(`SELECT job_id FROM slack_threads WHERE thread_ts = $1`, [threadTs]))[0]?.job_id;

describe("Socket Mode", () => {
  it("the manifest for Socket Mode has no request URLs; saving an app-level token connects", async () => {
    const manifest = await t.call("GET", "/admin/slack/manifest?mode=socket", { token: ADMIN_TOKEN });
    expect(manifest.body.settings).toMatchObject({ socket_mode_enabled: true, interactivity: { is_enabled: true }, event_subscriptions: { bot_events: expect.arrayContaining(["app_mention", "message.channels"]) } });
    expect(JSON.stringify(manifest.body)).not.toContain("request_url");
    const withoutAppToken = await t.call("PUT", "/admin/slack", { token: ADMIN_TOKEN, body: { mode: "socket", botToken: "xoxb-test-0123456789", signingSecret: "0123456789abcdef0123456789abcdef" } });
    expect(withoutAppToken.status).toBe(400);
    expect(withoutAppToken.body.details).toEqual([expect.objectContaining({ field: "appToken", message: expect.stringContaining("Socket Mode needs the app-level token (xapp-…)") })]);
    const saved = await t.call("PUT", "/admin/slack", { token: ADMIN_TOKEN, body: { mode: "socket", botToken: "xoxb-test-0123456789", signingSecret: "0123456789abcdef0123456789abcdef", appToken: "xapp-1-test-0123456789" } });
    expect(saved.body).toMatchObject({ configured: true, mode: "socket", socketMode: true, requestUrl: null });
    await eventually("the socket's connection", () => connection ?? undefined);
    expect(slack.callsOf("apps.connections.open")[0]?.args.token).toBe("xapp-1-test-0123456789");
  });

  it("an events_api envelope is acknowledged by its envelope_id and starts a job; Slack's retry of it (same event_id) is acknowledged and dropped", async () => {
    const payload = { team_id: "T1", api_app_id: "A1", type: "event_callback", event_id: "EvSock1", event_time: 1, event: { type: "app_mention", user: "UALICE", text: "<@UBOT> document the socket mode", ts: "1700000100.000100", channel: "CSOCK" } };
    send({ envelope_id: "env-1", type: "events_api", accepts_response_payload: false, retry_attempt: 0, retry_reason: "", payload });
    expect(await ackOf("env-1")).toEqual({ envelope_id: "env-1", payload: {} });
    const jobId = await eventually("the job", () => jobOfThread("1700000100.000100"));
    send({ envelope_id: "env-1-retry", type: "events_api", accepts_response_payload: false, retry_attempt: 1, retry_reason: "timeout", payload });
    await ackOf("env-1-retry");
    await drainTasks(t);
    expect((await listJobMessages(t.store.db, projectId, jobId)).map((m) => m.prompt)).toEqual(["document the socket mode"]);
    const [row] = await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM slack_threads WHERE thread_ts = '1700000100.000100'`);
    expect(row?.n).toBe(1);
    // The status message names the job by its id (no PUBLIC_URL to link to).
    expect(slack.callsOf("chat.postMessage").find((call) => call.args.thread_ts === "1700000100.000100")?.args.text).toContain(`job \`${jobId}\``);
  });

  it("an interactive envelope (Stop job) and a slash command are acknowledged, the command with its note", async () => {
    const jobId = (await jobOfThread("1700000100.000100")) as string;
    send({ envelope_id: "env-2", type: "interactive", accepts_response_payload: false, payload: { type: "block_actions", trigger_id: "trig-sock-1", user: { id: "UALICE" }, team: { id: "T1" }, channel: { id: "CSOCK" }, message: { ts: "1", thread_ts: "1700000100.000100" }, actions: [{ action_id: "inkwell_stop", value: jobId }] } });
    await ackOf("env-2");
    await eventually("the job stopped", async () => (await t.store.db.query<{ status: string }>(`SELECT status FROM jobs WHERE id = $1`, [jobId]))[0]?.status === "failed");

    send({ envelope_id: "env-3", type: "slash_commands", accepts_response_payload: true, payload: { command: "/inkwell", text: "document the CLI flags", trigger_id: "trig-sock-2", team_id: "T1", channel_id: "CSOCK", user_id: "UALICE" } });
    expect((await ackOf("env-3")).payload).toMatchObject({ response_type: "ephemeral", text: expect.stringMatching(/^On it/) });
    const root = await eventually("the command's message", () => slack.callsOf("chat.postMessage").find((call) => call.args.channel === "CSOCK" && !call.args.thread_ts && /asked: document the CLI flags/.test(call.args.text)));
    expect(root.args.text).toBe("<@UALICE> asked: document the CLI flags");
    await drainTasks(t);
    const started = await t.store.db.query<{ prompt: string }>(`SELECT m.prompt FROM job_messages m JOIN slack_threads s ON s.job_id = m.job_id WHERE s.channel_id = 'CSOCK' ORDER BY m.created_at DESC LIMIT 1`);
    expect(started[0]?.prompt).toBe("document the CLI flags");
  });
});

describe("the dashboard", () => {
  it("the operator's Slack page shows both manifests and saves tokens; a project's Slack channels page maps and unmaps a channel", async () => {
    const v = new Visitor(t.url);
    await v.signInAsOperator();
    const page = await v.get("/dashboard/slack");
    expect(page.status).toBe(200);
    expect(page.text).toContain("PUBLIC_URL (none is set)");
    expect(page.text).toContain("Socket Mode");
    expect(page.text).toContain("&quot;socket_mode_enabled&quot;: true");
    expect(page.text).toContain("inkwell_send");
    expect(page.text).not.toContain("xoxb-test");
    const csrf = await v.csrf("/dashboard/slack");
    const refused = await v.post("/dashboard/slack", { csrf, mode: "http", botToken: "xoxb-refused-000000000", signingSecret: "0123456789abcdef0123456789abcdef" });
    expect(refused.status).toBe(400);
    expect((await v.post("/dashboard/slack", { csrf, mode: "socket", botToken: "xoxb-test-0123456789", signingSecret: "0123456789abcdef0123456789abcdef", appToken: "xapp-1-test-0123456789" })).status).toBe(303);

    const channels = `/dashboard/projects/${projectId}/slack`;
    expect((await v.get(channels)).text).toContain("CSOCK");
    expect((await v.post(channels, { csrf, channelId: "CNEW123", userGroups: "SWRITERS, SEDITORS", anyReply: "on" })).status).toBe(303);
    expect((await t.call("GET", `/admin/projects/${projectId}/slack/channels`, { token: ADMIN_TOKEN })).body.channels).toContainEqual(expect.objectContaining({ channelId: "CNEW123", userGroups: ["SWRITERS", "SEDITORS"], anyReply: true }));
    expect((await v.post(`${channels}/CNEW123/delete`, { csrf })).status).toBe(303);
    expect((await t.call("GET", `/admin/projects/${projectId}/slack/channels`, { token: ADMIN_TOKEN })).body.channels.map((c: { channelId: string }) => c.channelId)).toEqual(["CSOCK"]);
    expect((await v.post(channels, { csrf, channelId: "not-a-channel" })).status).toBe(400);
  });
});

describe("the CLI", () => {
  it("maps, lists and unmaps a project's channels, and prints the manifest and the app's status", async () => {
    const cli = cliFor(t);
    const mapped = await cli(["slack", "map", "--project", projectId, "CCLI123", "--group", "SWRITERS", "--any-reply"]);
    expect(mapped).toMatchObject({ code: 0, stdout: `Mapped CCLI123 to ${projectId}: members of SWRITERS may ask; any reply in a job's thread is a follow-up.` });
    const listed = await cli(["slack", "channels", "--project", projectId, "--json"]);
    expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ channelId: "CCLI123", userGroups: ["SWRITERS"], anyReply: true }));
    expect((await cli(["slack", "unmap", "--project", projectId, "CCLI123"])).code).toBe(0);
    expect((await cli(["slack", "channels", "--project", projectId])).stdout).not.toContain("CCLI123");
    expect(JSON.parse((await cli(["slack", "manifest", "--mode", "socket"])).stdout).settings.socket_mode_enabled).toBe(true);
    expect((await cli(["slack", "manifest", "--mode", "ftp"])).code).toBe(2);
    expect((await cli(["slack", "status"])).stdout).toMatch(/^Slack app: bot UBOT in T1, Socket Mode\.$/);
  });
});
