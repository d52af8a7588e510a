import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DOCUMENTED_PATTERN, httpUrl, isHttpUrl } from "../../../src/shared/http-url.js";

describe("an http(s) URL field", () => {
  it("takes what URL parsing takes as an http(s) address, IPv6 literals included", () => {
    for (const url of ["https://docs.example.com/hooks", "http://127.0.0.1:8080", "http://[::1]/x", "http://[::ffff:192.168.1.1]/hooks", "https://a.example?x=1", "https://bücher.example/x", "https://xn--bcher-kva.example", "http://_dmarc.example.", "http://0x"]) {
      expect(isHttpUrl(url), url).toBe(true);
      expect(URL.canParse(url), url).toBe(true);
    }
  });

  it("refuses other schemes, user info, a second host in the path and broken IPv6 literals", () => {
    for (const url of ["ftp://a.example", "https://user@a.example", "https://a.example//b", "http://[:::]/x", "http://[::1/x", "http://:!", "https://a.example:65536", "https://[2001:db8::1]//evil.example/", "http://.0", "http://a.1./", "http://x.0x1/", "http://1.2.3.256/"]) {
      expect(isHttpUrl(url), url).toBe(false);
    }
  });

  it("follows the runtime's URL parsing where it decides a punycode label (Node 20 refuses xn--a, Node 24 takes it)", () => {
    for (const url of ["http://xn--a/", "http://xn--a.example/", "http://xn--/", "https://xn--bcher-kva.example/x"]) expect(isHttpUrl(url), url).toBe(URL.canParse(url));
    expect(isHttpUrl("https://xn--bcher-kva.example/x")).toBe(true);
  });

  it("documents a pattern every URL parser takes: whatever matches it, the server and WHATWG URL parsing take", () => {
    const documented = new RegExp(DOCUMENTED_PATTERN, "u");
    fc.assert(
      fc.property(fc.stringMatching(documented), (url) => {
        expect(URL.canParse(url), url).toBe(true);
        expect(isHttpUrl(url), url).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it("states its length and its pattern in the schema it documents", () => {
    const schema = httpUrl(300, "The instance.");
    expect(schema.safeParse(`https://a.example/${"x".repeat(300)}`).error?.issues[0]?.message).toBe("must be at most 300 characters");
    expect(new RegExp(schema.meta()?.pattern as string, "u").test("https://a.example/x")).toBe(true);
    expect(schema.meta()?.description).toBe("The instance.");
  });
});
