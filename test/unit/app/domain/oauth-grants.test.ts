import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  approveAuthorization,
  challengeForCode,
  createPendingAuthorization,
  findPendingAuthorization,
  grantForAccessToken,
  issueTokens,
  listGrants,
  revokeClientToken,
  revokeGrant,
  saveOAuthClient,
  spendCode,
  spendRefreshToken,
} from "../../../../src/app/domain/oauth-grants.js";
import { createProject } from "../../../../src/app/domain/projects.js";
import { openTestStore, type TestStore } from "../../../helpers/store.js";

const RESOURCE = "https://inkwell.example.com/mcp";
const LIFETIMES = { accessSeconds: 3600, refreshSeconds: 86_400 };

let store: TestStore;
let projectId: string;
let clients = 0;

beforeAll(async () => {
  store = await openTestStore();
  projectId = (await createProject(store.db, { repoName: "acme/grants", repository: "https://github.com/acme/grants", model: "m" })).id;
});
afterAll(async () => {
  await store.drop();
});

/** A client, a request for it, approved with `analytics`: the code and the client's id. */
async function approved() {
  const clientId = `client-${++clients}`;
  await saveOAuthClient(store.db, { clientId, kind: "registered", clientName: "Assistant", redirectUris: ["https://a.example/cb"], metadata: {} }, null);
  const id = await createPendingAuthorization(store.db, { clientId, redirectUri: "https://a.example/cb", codeChallenge: "challenge", state: "s", scopes: ["analytics", "mcp:tools"], resource: RESOURCE });
  const pending = await findPendingAuthorization(store.db, id);
  expect(pending).toMatchObject({ clientId, scopes: ["analytics", "mcp:tools"], resource: RESOURCE, client: { clientName: "Assistant", kind: "registered" } });
  const decided = await store.db.transaction((tx) => approveAuthorization(tx, id, { projectId, scopes: ["analytics"], grantedBy: "operator" }));
  expect(decided?.code).toMatch(/^inkac_/);
  // Decided once: the request no longer waits, and a second approval makes nothing.
  expect(await findPendingAuthorization(store.db, id)).toBeUndefined();
  expect(await store.db.transaction((tx) => approveAuthorization(tx, id, { projectId, scopes: ["jobs"], grantedBy: "operator" }))).toBeUndefined();
  return { clientId, code: decided!.code, grantId: decided!.grantId };
}

describe("OAuth grants in the store", () => {
  it("keeps codes and tokens only as hashes", async () => {
    const { clientId, code, grantId } = await approved();
    const spent = await spendCode(store.db, clientId, code);
    const tokens = await issueTokens(store.db, spent!.grantId, LIFETIMES);
    const stored = JSON.stringify(await store.db.query(`SELECT * FROM oauth_tokens WHERE grant_id = $1`, [grantId])) + JSON.stringify(await store.db.query(`SELECT * FROM oauth_authorizations`));
    for (const secret of [code, tokens.accessToken, tokens.refreshToken]) expect(stored).not.toContain(secret);
  });

  it("spends a code once, for its own client only; a code presented again revokes what it granted", async () => {
    const { clientId, code, grantId } = await approved();
    expect(await challengeForCode(store.db, "another-client", code)).toBeUndefined();
    expect(await challengeForCode(store.db, clientId, code)).toBe("challenge");
    expect(await spendCode(store.db, "another-client", code)).toBeUndefined();
    const spent = await spendCode(store.db, clientId, code);
    expect(spent).toMatchObject({ grantId, projectId, scopes: ["analytics"], resource: RESOURCE, redirectUri: "https://a.example/cb" });
    const tokens = await issueTokens(store.db, grantId, LIFETIMES);
    expect(await grantForAccessToken(store.db, tokens.accessToken)).toMatchObject({ grantId, projectId, scopes: ["analytics"] });
    expect(await spendCode(store.db, clientId, code)).toBeUndefined();
    expect(await grantForAccessToken(store.db, tokens.accessToken)).toBeUndefined();
  });

  it("rotates refresh tokens; one presented again revokes the grant", async () => {
    const { clientId, code, grantId } = await approved();
    await spendCode(store.db, clientId, code);
    const first = await issueTokens(store.db, grantId, LIFETIMES);
    expect(await spendRefreshToken(store.db, "another-client", first.refreshToken)).toBeUndefined();
    expect(await spendRefreshToken(store.db, clientId, first.refreshToken)).toMatchObject({ grantId });
    const second = await issueTokens(store.db, grantId, LIFETIMES);
    expect(await grantForAccessToken(store.db, second.accessToken)).toMatchObject({ grantId });
    expect(await spendRefreshToken(store.db, clientId, first.refreshToken)).toBeUndefined();
    expect(await grantForAccessToken(store.db, second.accessToken)).toBeUndefined();
    expect(await spendRefreshToken(store.db, clientId, second.refreshToken)).toBeUndefined();
  });

  it("refuses an expired access token", async () => {
    const { clientId, code, grantId } = await approved();
    await spendCode(store.db, clientId, code);
    const tokens = await issueTokens(store.db, grantId, { accessSeconds: 1, refreshSeconds: 60 });
    await store.db.query(`UPDATE oauth_tokens SET expires_at = now() - interval '1 second' WHERE grant_id = $1 AND kind = 'access'`, [grantId]);
    expect(await grantForAccessToken(store.db, tokens.accessToken)).toBeUndefined();
  });

  it("revokes: a refresh token through RFC 7009 ends its grant, an access token ends itself, and the project's revoke ends everything", async () => {
    const one = await approved();
    await spendCode(store.db, one.clientId, one.code);
    const tokens = await issueTokens(store.db, one.grantId, LIFETIMES);
    await revokeClientToken(store.db, "another-client", tokens.refreshToken);
    expect(await grantForAccessToken(store.db, tokens.accessToken)).toBeDefined();
    await revokeClientToken(store.db, one.clientId, tokens.accessToken);
    expect(await grantForAccessToken(store.db, tokens.accessToken)).toBeUndefined();
    const again = await issueTokens(store.db, one.grantId, LIFETIMES);
    await revokeClientToken(store.db, one.clientId, again.refreshToken);
    expect(await grantForAccessToken(store.db, again.accessToken)).toBeUndefined();

    const two = await approved();
    await spendCode(store.db, two.clientId, two.code);
    const live = await issueTokens(store.db, two.grantId, LIFETIMES);
    await expect(revokeGrant(store.db, "another-project", two.grantId)).rejects.toThrow(/Grant not found/);
    await revokeGrant(store.db, projectId, two.grantId);
    expect(await grantForAccessToken(store.db, live.accessToken)).toBeUndefined();
    const listed = await listGrants(store.db, projectId);
    expect(listed.find((g) => g.id === two.grantId)).toMatchObject({ clientName: "Assistant", redirectHost: "a.example", scopes: ["analytics"], grantedBy: "operator", revokedAt: expect.any(String) });
  });
});
