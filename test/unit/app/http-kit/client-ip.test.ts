import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientIp, parseTrustedProxies } from "../../../../src/app/http-kit/client-ip.js";

const request = (peer: string, xff?: string) => ({ socket: { remoteAddress: peer }, headers: xff === undefined ? {} : { "x-forwarded-for": xff } }) as unknown as IncomingMessage;

describe("client address behind proxies", () => {
  const trusted = parseTrustedProxies("10.0.0.0/8, 127.0.0.1, fd00::/8");

  it("uses the socket peer when it is not a trusted proxy, whatever X-Forwarded-For says", () => {
    expect(clientIp(request("203.0.113.9", "1.1.1.1"), trusted)).toBe("203.0.113.9");
    expect(clientIp(request("203.0.113.9"), parseTrustedProxies(undefined))).toBe("203.0.113.9");
  });

  it("walks X-Forwarded-For from the right past trusted hops; an IPv4-mapped peer is matched as IPv4", () => {
    expect(clientIp(request("10.0.0.2", "6.6.6.6, 198.51.100.4, 10.1.1.1"), trusted)).toBe("198.51.100.4");
    expect(clientIp(request("::ffff:127.0.0.1", "198.51.100.5"), trusted)).toBe("198.51.100.5");
    expect(clientIp(request("fd00::1", "2001:db8::7"), trusted)).toBe("2001:db8::7");
    expect(clientIp(request("10.0.0.2", "10.0.0.3, 10.0.0.4"), trusted)).toBe("10.0.0.3");
    expect(clientIp(request("10.0.0.2"), trusted)).toBe("10.0.0.2");
    expect(clientIp(request("10.0.0.2", "garbage"), trusted)).toBeNull();
  });

  it("refuses entries that are neither addresses nor CIDR ranges", () => {
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/10.0.0.0\/33/);
    expect(() => parseTrustedProxies("proxy.internal")).toThrow(/proxy.internal/);
    expect(() => parseTrustedProxies("10.0.0.0/8x")).toThrow();
  });
});
