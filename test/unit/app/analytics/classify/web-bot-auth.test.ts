import { appendSignature, component, createSignature, webcrypto } from "http-message-sig";
import { describe, expect, it } from "vitest";
import { KeyDirectories } from "../../../../../src/app/analytics/classify/key-directory.js";
import { signedRequestOf, vendoredSignatureAgents, WebBotAuth, type SignedRequest } from "../../../../../src/app/analytics/classify/web-bot-auth.js";
import { CHATGPT_AGENT_ORIGIN, KEY_DIRECTORY, signedRequestFields, type SignOptions } from "../../../../helpers/web-bot-auth.js";

const DAY = 86_400_000;

/** A directory server at the HTTP edge: counts requests, answers what the test says. */
function directoryServer(answer: () => Response = () => Response.json(KEY_DIRECTORY)) {
  const requests: string[] = [];
  const fetchImpl = (async (url: URL | string) => {
    requests.push(String(url));
    return answer();
  }) as typeof fetch;
  return { requests, fetchImpl };
}

function verifier(fetchImpl: typeof fetch, now?: () => number) {
  return new WebBotAuth(vendoredSignatureAgents(), new KeyDirectories({ fetch: fetchImpl, now }));
}

async function signed(options: SignOptions = {}, hit: { host?: string; path?: string } = {}): Promise<SignedRequest> {
  const fields = await signedRequestFields(options);
  const request = signedRequestOf({ path: hit.path ?? options.path ?? "/guide", ...fields, host: hit.host ?? fields.host });
  if (!request) throw new Error("no signed request");
  return request;
}

describe("Web Bot Auth: a signature proves the agent, checked against its operator's key directory", () => {
  it("verifies a request signed with a current key of the directory, whatever the User-Agent", async () => {
    const edge = directoryServer();
    const check = await verifier(edge.fetchImpl).check(await signed(), Date.now());
    expect(check).toMatchObject({ outcome: "verified", agent: { agent: "ChatGPT Agent", operator: "OpenAI", category: "assistant" } });
    expect(check?.replay?.key).toMatch(/^[\w-]{43}$/);
    expect(edge.requests).toEqual([`${CHATGPT_AGENT_ORIGIN}/.well-known/http-message-signatures-directory`]);
  });

  it("checks a backfilled hit at the time the page was served", async () => {
    const servedAt = Date.now() - 3 * DAY;
    const check = await verifier(directoryServer().fetchImpl).check(await signed({ created: servedAt - 2_000 }), servedAt);
    expect(check?.outcome).toBe("verified");
  });

  it("calls a signature that had expired when the page was served expired: it proves nothing either way", async () => {
    const check = await verifier(directoryServer().fetchImpl).check(await signed({ created: Date.now() - 10 * 60_000, validForMs: 60_000 }), Date.now());
    expect(check).toMatchObject({ outcome: "expired" });
  });

  it("calls a signature by a key the directory does not publish, or no longer publishes as current, invalid", async () => {
    const auth = verifier(directoryServer().fetchImpl);
    expect(await auth.check(await signed({ key: "stranger" }), Date.now())).toMatchObject({ outcome: "invalid", reason: expect.stringMatching(/Verifier resolution failed/) });
    expect(await auth.check(await signed({ key: "retired" }), Date.now())).toMatchObject({ outcome: "invalid" });
  });

  it("calls a signature replayed for another site, or with its Signature-Agent changed, invalid", async () => {
    const auth = verifier(directoryServer().fetchImpl);
    expect(await auth.check(await signed({ host: "docs.example.com" }, { host: "other.example.org" }), Date.now())).toMatchObject({
      outcome: "invalid",
      reason: expect.stringMatching(/verification failed/i),
    });
    const tampered = { ...(await signed()), signatureAgent: `"${CHATGPT_AGENT_ORIGIN}/"` };
    expect(await auth.check(tampered, Date.now())).toMatchObject({ outcome: "invalid" });
  });

  it("calls a known Signature-Agent without a web-bot-auth signature invalid: the claim has no proof", async () => {
    const auth = verifier(directoryServer().fetchImpl);
    const { signature, ...unsigned } = await signed();
    expect(signature).toBeTruthy();
    expect(await auth.check(unsigned, Date.now())).toMatchObject({ outcome: "invalid" });
    const untagged = await signed();
    expect(await auth.check({ ...untagged, signatureInput: untagged.signatureInput?.replace('tag="web-bot-auth"', 'tag="other"') }, Date.now())).toMatchObject({
      outcome: "invalid",
      reason: expect.stringMatching(/no signature tagged web-bot-auth/),
    });
  });

  it("never fetches a directory for an origin it does not know (the request names it, so an attacker would)", async () => {
    const edge = directoryServer();
    const request = await signed({ signatureAgent: '"https://attacker.example"' });
    expect(await verifier(edge.fetchImpl).check(request, Date.now())).toBeNull();
    expect(edge.requests).toEqual([]);
  });

  it("reads Signature-Agent as a dictionary too (later drafts), with the signature covering its member", async () => {
    const key = await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", d: "n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU", x: KEY_DIRECTORY.keys[0].x }, { name: "Ed25519" }, false, ["sign"]);
    const now = Math.floor(Date.now() / 1000);
    const request = new Request("https://docs.example.com/guide", { headers: { "signature-agent": `agent1="${CHATGPT_AGENT_ORIGIN}"` } });
    const fields = await createSignature(request, {
      label: "sig2",
      components: ["@authority", component("signature-agent", { key: "agent1" })],
      parameters: { created: now - 1, expires: now + 60, keyid: KEY_DIRECTORY.keys[0].kid, tag: "web-bot-auth" },
      signer: webcrypto.signer(key),
    });
    const headers = appendSignature(request.headers, fields);
    const check = await verifier(directoryServer().fetchImpl).check(
      { method: "GET", url: request.url, signature: headers.get("signature") ?? "", signatureInput: headers.get("signature-input") ?? "", signatureAgent: `agent1="${CHATGPT_AGENT_ORIGIN}"` },
      Date.now(),
    );
    expect(check?.outcome).toBe("verified");
  });
});

describe("KeyDirectories: fetched once per cache period, kept through an outage", () => {
  it("fetches once for many concurrent checks and again after max-age", async () => {
    let now = Date.now();
    const edge = directoryServer(() => Response.json(KEY_DIRECTORY, { headers: { "cache-control": "public, max-age=600" } }));
    const auth = verifier(edge.fetchImpl, () => now);
    const requests = await Promise.all([signed(), signed(), signed()]);
    const checks = await Promise.all(requests.map((r) => auth.check(r, Date.now())));
    expect(checks.map((c) => c?.outcome)).toEqual(["verified", "verified", "verified"]);
    expect(edge.requests).toHaveLength(1);
    now += 599_000;
    await auth.check(requests[0] as SignedRequest, Date.now());
    expect(edge.requests).toHaveLength(1);
    now += 2_000;
    await auth.check(requests[0] as SignedRequest, Date.now());
    expect(edge.requests).toHaveLength(2);
  });

  it("keeps verifying with the last good keys when the directory fails, and says unavailable when it never answered", async () => {
    let now = Date.now();
    let up = true;
    const edge = directoryServer(() => (up ? Response.json(KEY_DIRECTORY) : new Response("down", { status: 503 })));
    const auth = verifier(edge.fetchImpl, () => now);
    const request = await signed();
    expect((await auth.check(request, Date.now()))?.outcome).toBe("verified");
    up = false;
    now += 2 * 60 * 60_000;
    expect((await auth.check(request, Date.now()))?.outcome).toBe("verified");
    expect(edge.requests).toHaveLength(2);

    const down = verifier(directoryServer(() => new Response("down", { status: 503 })).fetchImpl);
    expect(await down.check(request, Date.now())).toMatchObject({ outcome: "unavailable" });
  });

  it("skips keys it cannot use and a directory that is not one", async () => {
    const mixed = { keys: [{ kty: "EC", crv: "P-256", x: "a", y: "b" }, "junk", ...KEY_DIRECTORY.keys] };
    expect((await verifier(directoryServer(() => Response.json(mixed)).fetchImpl).check(await signed(), Date.now()))?.outcome).toBe("verified");
    const notOne = verifier(directoryServer(() => new Response("<html>")).fetchImpl);
    expect((await notOne.check(await signed(), Date.now()))?.outcome).toBe("unavailable");
  });
});
