import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchRobotsTxt } from "../../../../../src/app/analytics/robots/robots-fetch.js";

// The fetcher against a local server: what each answer means, and the address guard (loopback is
// refused unless the operator allows internal addresses, as for webhooks).
let server: Server;
let base: string;
const routes = new Map<string, (res: ServerResponse) => void>();

beforeAll(async () => {
  server = createServer((req, res) => (routes.get(req.url ?? "") ?? ((r) => r.writeHead(404).end("no")))(res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes.set("/robots.txt", (res) => res.writeHead(200, { "Content-Type": "text/plain" }).end("User-agent: *\nDisallow: /private\n"));
  routes.set("/boom", (res) => res.writeHead(503).end("down"));
  routes.set("/moved", (res) => res.writeHead(301, { Location: "/robots.txt" }).end());
  routes.set("/loop", (res) => res.writeHead(302, { Location: "/loop" }).end());
  routes.set("/huge", (res) => res.writeHead(200).end("x".repeat(2_000)));
  routes.set("/hang", () => {});
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const open = { allowPrivate: true, timeoutMs: 2_000 };

describe("fetchRobotsTxt", () => {
  it("returns the body of a 2xx", async () => {
    expect(await fetchRobotsTxt(`${base}/robots.txt`, open)).toEqual({ ok: true, body: "User-agent: *\nDisallow: /private\n", url: `${base}/robots.txt` });
  });

  it("says why for a 404 and a 5xx", async () => {
    expect(await fetchRobotsTxt(`${base}/gone`, open)).toEqual({ ok: false, status: 404, error: "the site answered 404" });
    expect(await fetchRobotsTxt(`${base}/boom`, open)).toEqual({ ok: false, status: 503, error: "the site answered 503" });
  });

  it("follows redirects, up to five", async () => {
    expect(await fetchRobotsTxt(`${base}/moved`, open)).toMatchObject({ ok: true, url: `${base}/robots.txt` });
    expect(await fetchRobotsTxt(`${base}/loop`, open)).toEqual({ ok: false, status: 302, error: "more than 5 redirects" });
  });

  it("refuses a body over the limit without reading it all", async () => {
    expect(await fetchRobotsTxt(`${base}/huge`, { ...open, maxBytes: 1_000 })).toEqual({ ok: false, status: 200, error: "larger than 1000 bytes" });
  });

  it("gives up after the timeout", async () => {
    expect(await fetchRobotsTxt(`${base}/hang`, { allowPrivate: true, timeoutMs: 200 })).toEqual({ ok: false, status: null, error: "no answer within 200 ms" });
  });

  it("refuses private addresses, named or literal, and a redirect to one, before connecting", async () => {
    const guarded = { allowPrivate: false, timeoutMs: 2_000 };
    expect(await fetchRobotsTxt(`${base}/robots.txt`, guarded)).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/127\.0\.0\.1 is a loopback address: robots.txt fetches go to public addresses only/) });
    expect(await fetchRobotsTxt(`http://localhost:${new URL(base).port}/robots.txt`, guarded)).toMatchObject({ ok: false, error: expect.stringMatching(/localhost resolves to .*loopback/) });
    expect(await fetchRobotsTxt("ftp://example.com/robots.txt", guarded)).toMatchObject({ ok: false, error: "not an http(s) URL: ftp:" });
  });
});
