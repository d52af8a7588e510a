import { describe, expect, it } from "vitest";
import { checkPublicUrl, tunnelRecipe } from "../../../../../src/app/forges/github/public-url-check.js";

describe("whether GitHub can reach PUBLIC_URL", () => {
  it.each([
    [undefined, /not set/],
    ["http://localhost:3000", /localhost is a name only this machine/],
    ["http://docs.localhost", /only this machine/],
    ["http://127.0.0.1:3000", /loopback/],
    ["http://[::1]:3000", /loopback/],
    ["http://10.1.2.3", /private/],
    ["http://172.20.0.5:8080", /private/],
    ["http://192.168.1.20", /private/],
    ["http://100.64.3.4", /carrier-grade NAT/],
    ["http://169.254.10.1", /link-local/],
    ["http://[fd12::1]", /unique local/],
    ["http://[::ffff:192.168.0.1]", /private/],
    ["http://inkwell.internal", /only this machine or network/],
    ["http://printer.local", /only this machine or network/],
    ["http://inkwell:3000", /single-label/],
  ])("%s → unreachable (%s)", (url, reason) => {
    const check = checkPublicUrl(url);
    expect(check.reachable).toBe(false);
    expect(check.reachable ? "" : check.reason).toMatch(reason);
  });

  it.each(["https://inkwell.example.com", "https://abc-def.trycloudflare.com", "http://8.8.8.8:3000", "https://[2001:4860::8888]"])("%s → reachable", (url) => {
    expect(checkPublicUrl(url)).toEqual({ reachable: true });
  });

  it("the tunnel recipe uses the server's port and says to restart with PUBLIC_URL", () => {
    const recipe = tunnelRecipe(4123).join("\n");
    expect(recipe).toContain("cloudflared tunnel --url http://localhost:4123");
    expect(recipe).toContain("ngrok http 4123");
    expect(recipe).toMatch(/PUBLIC_URL=https:\/\/<that address> npm start/);
  });

  it("the restart keeps a port other than the default, which the tunnel points at", () => {
    expect(tunnelRecipe(3100)[2]).toMatch(/^PORT=3100 PUBLIC_URL=https:\/\/<that address> npm start/);
    expect(tunnelRecipe(3000)[2]).toMatch(/^PUBLIC_URL=https:\/\/<that address> npm start/);
  });
});
