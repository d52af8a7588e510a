import { generateKeyPairSync } from "node:crypto";
import nock from "nock";
import { pino } from "pino";
import { Probot } from "probot";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/app/config.js";
import { GitHubDispatcher } from "../../src/app/github/github-dispatcher.js";

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs1", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
const config = loadConfig({ APP_ID: "123", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: "s3cret" }, () => "");

let dispatcher: GitHubDispatcher;
beforeAll(() => {
  nock.disableNetConnect();
  const probot = new Probot({ appId: 123, privateKey, secret: "s3cret", log: pino({ level: "silent" }) as never });
  dispatcher = new GitHubDispatcher(probot, config);
});
afterEach(() => nock.cleanAll());

describe("GitHub dispatcher", () => {
  it("fails at once, saying what to do, when the App is not installed on the repository", async () => {
    const outcome = await dispatcher.dispatch({ jobId: "j1", runAttempt: 1, repoFullName: "acme/docs", installationId: null });
    expect(outcome).toMatchObject({ ok: false, retryable: false });
    if (!outcome.ok) expect(outcome.error).toMatch(/not installed on acme\/docs.*Install it.*follow-up message/);
  });

  it("sends repository_dispatch inkwell-agent with the job id and run attempt, as the installation", async () => {
    const token = nock("https://api.github.com")
      .post("/app/installations/42/access_tokens")
      .reply(201, { token: "ghs_installation", expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: { contents: "write" }, repository_selection: "selected" });
    let sent: unknown;
    const dispatch = nock("https://api.github.com", { reqheaders: { authorization: "token ghs_installation" } })
      .post("/repos/acme/docs/dispatches", (body) => {
        sent = body;
        return true;
      })
      .reply(204);
    const outcome = await dispatcher.dispatch({ jobId: "j1", runAttempt: 3, repoFullName: "acme/docs", installationId: 42 });
    expect(outcome).toEqual({ ok: true });
    expect(sent).toEqual({ event_type: "inkwell-agent", client_payload: { job_id: "j1", run_attempt: 3 } });
    expect(token.isDone() && dispatch.isDone()).toBe(true);
  });
});
