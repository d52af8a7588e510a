import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDestination, postToDestination, refusedAddress, RefusedDestinationError } from "../../../../src/app/project-webhooks/destination.js";

let server: Server;
let port: number;
let received = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    received++;
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const init = (allowPrivate: boolean) => ({ headers: { "Content-Type": "application/json" }, body: "{}", timeoutMs: 5_000, allowPrivate });

describe("where a project webhook may go", () => {
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["::1", "a loopback address"],
    ["10.1.2.3", "a private address"],
    ["192.168.0.10", "a private address"],
    ["172.16.5.4", "a private address"],
    ["169.254.169.254", "a link-local (cloud metadata) address"],
    ["fe80::1", "a link-local (cloud metadata) address"],
    ["fd00::1", "a private (unique local) address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["100.64.0.1", "a carrier-grade NAT address"],
    ["0.0.0.0", "an unspecified address"],
  ])("refuses %s: %s", (address, why) => {
    expect(refusedAddress(address)).toBe(why);
  });

  it("lets public addresses through", () => {
    for (const address of ["93.184.216.34", "140.82.112.3", "2606:4700:4700::1111"]) expect(refusedAddress(address)).toBeNull();
  });

  it("refuses at creation a URL whose host is or resolves to such an address, saying why and how the operator allows it", async () => {
    expect(await checkDestination("http://169.254.169.254/latest/meta-data", false)).toBe(
      "169.254.169.254 is a link-local (cloud metadata) address: webhooks go to public addresses only (the operator allows internal ones with INKWELL_WEBHOOKS_ALLOW_PRIVATE=true)",
    );
    expect(await checkDestination(`http://localhost:${port}/hooks`, false)).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which is a loopback address: /);
    expect(await checkDestination("http://[::ffff:10.0.0.1]/", false)).toMatch(/is a private address/);
    expect(await checkDestination(`http://localhost:${port}/hooks`, true)).toBeNull();
  });

  it("checks again as each delivery connects: a name that now resolves to loopback is never connected to", async () => {
    const before = received;
    await expect(postToDestination(`http://localhost:${port}/hooks`, init(false))).rejects.toBeInstanceOf(RefusedDestinationError);
    await expect(postToDestination(`http://127.0.0.1:${port}/hooks`, init(false))).rejects.toThrow(/127\.0\.0\.1 is a loopback address/);
    expect(received).toBe(before);
    expect(await postToDestination(`http://localhost:${port}/hooks`, init(true))).toBe(204);
    expect(received).toBe(before + 1);
  });
});
