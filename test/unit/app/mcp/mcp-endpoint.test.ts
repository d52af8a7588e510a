import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../../src/app/config.js";
import { isAllowedOrigin } from "../../../../src/app/mcp/mcp-endpoint.js";

const allowed = { publicUrl: "https://inkwell.example.com", origins: ["https://app.example.org"] };

describe("which browser origins may call /mcp", () => {
  it("this server's own (PUBLIC_URL), this machine's on any port, and those the operator lists", () => {
    for (const origin of ["https://inkwell.example.com", "https://INKWELL.example.com:443", "http://localhost:6274", "http://127.0.0.1", "http://[::1]:3000", "https://app.example.org"]) {
      expect(isAllowedOrigin(origin, allowed), origin).toBe(true);
    }
  });

  it("nothing else: another site (a DNS-rebinding page), another scheme or port of an allowed one, 'null', or what is no origin", () => {
    for (const origin of ["https://evil.example", "http://inkwell.example.com", "https://inkwell.example.com:8443", "https://app.example.org.evil.example", "null", "", "file://", "chrome-extension://abc", "https://a.com, https://b.com"]) {
      expect(isAllowedOrigin(origin, allowed), origin).toBe(false);
    }
    expect(isAllowedOrigin("https://inkwell.example.com", { publicUrl: undefined, origins: [] })).toBe(false);
  });
});

describe("INKWELL_MCP_ALLOWED_ORIGINS", () => {
  const load = (value: string) => loadConfig({ INKWELL_MCP_ALLOWED_ORIGINS: value }, () => "");

  it("reads comma-separated origins, normalized as browsers send them", () => {
    expect(load(" https://App.example.com , https://a.com:443,http://b.test:8080/ ").mcpAllowedOrigins).toEqual(["https://app.example.com", "https://a.com", "http://b.test:8080"]);
    expect(loadConfig({}, () => "").mcpAllowedOrigins).toEqual([]);
  });

  it("refuses what is not an origin, naming it", () => {
    for (const value of ["https://a.com/mcp", "https://a.com?x=1", "https://user:pw@a.com", "a.com", "ftp://a.com"]) {
      expect(() => load(value), value).toThrow(ConfigError);
      expect(() => load(value), value).toThrow(new RegExp(`INKWELL_MCP_ALLOWED_ORIGINS: ${value.replace(/[.?*+^$()|[\]\\]/g, "\\$&")} is not an origin`));
    }
  });
});
