import { describe, expect, it } from "vitest";
import { createLineParser, parseLogLine } from "../../../../src/cli/logs/formats.js";
import { DEFAULT_NGINX_JSON_FIELDS } from "../../../../src/cli/logs/formats/nginx-json.js";
import { CHROME, CLAUDEBOT, CUSTOM_FORMAT, FIREFOX, GOOGLEBOT, GPTBOT, HTML_ACCEPT, SAFARI_IOS, fixtureLines, outcomes, readFile } from "./format-cases.js";

describe("importing an Apache vhost_combined log (within --format combined)", () => {
  const log = readFile("combined", "vhost-combined.txt");

  it("reads the address after the virtual host, and a plain combined line in the same file", () => {
    expect(log.outcomes()).toEqual([
      "/docs/getting-started?utm_source=chatgpt.com", // utm_medium dropped
      "skip: not-a-page-view", // .css
      "skip: status", // 301 to https
      "/docs/api/authentication", // IPv6 after the vhost, query dropped
      "/llms.txt", // GPTBot
      "skip: not-a-page-view", // /robots.txt
      "/docs/faq", // Googlebot: sent, the server counts it as a bot
      "skip: method", // POST
      "/docs/changelog", // another vhost, with a user
      "/docs/guides/deploy", // combined line without vhost
      "/docs/old-page", // 404
      "skip: malformed", // "-" as the address
      "/docs/getting-started", // HEAD
      "skip: not-a-page-view", // /_next/
      "skip: malformed", // cut off
    ]);
  });

  it("takes the client, not the virtual host, and keeps the whole referrer", () => {
    expect(log.hit(1)).toEqual({
      timestamp: "2025-03-12T09:14:02.000Z",
      path: "/docs/getting-started?utm_source=chatgpt.com",
      ip: "203.0.113.7",
      userAgent: CHROME,
      referrer: "https://chatgpt.com/",
    });
    expect(log.hit(4)).toEqual({
      timestamp: "2025-03-12T09:02:45.000Z",
      path: "/docs/api/authentication",
      ip: "2001:db8:85a3::8a2e:370:7334",
      userAgent: FIREFOX,
      referrer: "https://github.com/acme/widgets",
    });
    expect(log.hit(11)).toMatchObject({ path: "/docs/old-page", status: 404 });
    expect(log.detail(12)).toBe('client address "-" is not an IP address');
  });

  it("never reads a plain combined line, IPv6 or not, as a virtual host", () => {
    const line = (first: string) => `${first} - - [12/Mar/2025:09:14:02 +0000] "GET /docs HTTP/1.1" 200 512 "-" "Mozilla/5.0"`;
    for (const address of ["203.0.113.7", "2001:db8::1", "::1", "2001:db8:0:0:0:0:2:1"]) {
      expect(parseLogLine("combined", line(address))).toMatchObject({ ok: true, hit: { ip: address } });
    }
    expect(parseLogLine("combined", line("[2001:db8::1]:8443 198.51.100.4"))).toMatchObject({ ok: true, hit: { ip: "198.51.100.4" } });
    expect(parseLogLine("combined", line("docs.acme.com 198.51.100.4"))).toMatchObject({ ok: true, hit: { ip: "198.51.100.4" } });
  });
});

describe("importing a Caddy JSON access log", () => {
  const log = readFile("caddy", "caddy.ndjson");

  it("counts access entries, skips Caddy's other loggers, assets, redirects, non-GETs and broken lines", () => {
    expect(log.outcomes()).toEqual([
      "/docs/getting-started?utm_source=newsletter", // behind a proxy: client_ip
      "skip: not-a-page-view", // .js
      "/docs/guides/webhooks.md", // ClaudeBot asking for markdown
      "skip: method", // POST
      "skip: status", // 308
      "skip: not-a-page-view", // tls.obtain
      "skip: not-a-page-view", // http.log.error
      "/docs/faq", // Caddy before 2.7: remote_ip only
      "/docs/old-page", // 404
      "/docs/getting-started", // HEAD
      "/docs/getting-started", // 304
      "/llms.txt", // ts as an ISO string (time_format iso8601)
      "skip: not-a-page-view", // /robots.txt
      "skip: malformed", // no uri
      "skip: malformed", // cut off
    ]);
  });

  it("prefers client_ip to remote_ip and reads headers from their arrays", () => {
    expect(log.hit(1)).toEqual({
      timestamp: "2025-03-12T09:14:02.123Z",
      path: "/docs/getting-started?utm_source=newsletter",
      ip: "203.0.113.7", // remote_ip is the proxy's 172.71.190.23
      userAgent: CHROME,
      accept: HTML_ACCEPT,
      referrer: "https://mail.google.com/",
    });
    expect(log.hit(3)).toEqual({
      timestamp: "2025-03-12T11:21:12.000Z",
      path: "/docs/guides/webhooks.md",
      ip: "160.79.104.10",
      userAgent: CLAUDEBOT,
      accept: "text/markdown, text/html;q=0.9",
    });
    expect(log.hit(8)).toMatchObject({ ip: "2a02:c7c:1234:5600::42", timestamp: "2025-03-12T11:36:40.250Z" });
    expect(log.hit(12)).toMatchObject({ timestamp: "2025-03-12T11:45:00.250Z", userAgent: GPTBOT });
    expect(log.detail(6)).toBe("tls.obtain line, not an access log entry");
    expect(log.detail(14)).toMatch(/^request\.uri: /);
  });
});

describe("importing an nginx JSON log (--format nginx-json)", () => {
  it("reads the default keys: $time_iso8601, $time_local or $msec; $request or $request_method with $request_uri", () => {
    const log = readFile("nginx-json", "nginx-json.ndjson");
    expect(log.outcomes()).toEqual([
      "/docs/getting-started?utm_source=twitter", // ref= dropped
      "skip: not-a-page-view", // .svg
      "/docs/api/authentication", // time_local, request_method + request_uri, numeric status
      "/docs/guides/webhooks.md", // msec
      "skip: method", // POST
      "skip: status", // 301
      "/llms-full.txt", // GPTBot, -07:00
      "skip: not-a-page-view", // /sitemap.xml
      "/docs/faq", // 404
      "skip: malformed", // no remote_addr
      "skip: malformed", // TLS bytes as the request
      "/docs/getting-started", // HEAD
      "skip: malformed", // cut off
      "/docs/changelog", // 304
    ]);
    expect(log.hit(1)).toEqual({
      timestamp: "2025-03-12T09:14:02.000Z",
      path: "/docs/getting-started?utm_source=twitter",
      ip: "203.0.113.7",
      userAgent: CHROME,
      accept: HTML_ACCEPT,
      referrer: "https://t.co/xyz",
    });
    expect(log.hit(3)).toEqual({ timestamp: "2025-03-12T09:02:45.000Z", path: "/docs/api/authentication", ip: "2001:db8:85a3::8a2e:370:7334", userAgent: FIREFOX, accept: HTML_ACCEPT });
    expect(log.hit(4).timestamp).toBe("2025-03-12T11:21:12.512Z");
    expect(log.hit(7).timestamp).toBe("2025-03-12T18:30:00.000Z");
    expect(log.hit(9)).toMatchObject({ userAgent: GOOGLEBOT, status: 404 });
    expect(log.detail(10)).toBe("no remote_addr");
  });

  it("takes each --field NAME=KEY instead of the default keys, a dotted key reaching into objects", () => {
    const fields = ["ip=client", "userAgent=ua", "time=ts", "request=req", "status=code", "referrer=ref"];
    expect(outcomes("nginx-json", fixtureLines("nginx-json-fields.ndjson"), { fields })).toEqual([
      "/docs/getting-started?utm_source=slack",
      "skip: not-a-page-view",
      "/docs/faq",
      "skip: malformed", // has remote_addr, but --field ip=client says where the address is
    ]);
    const nested = createLineParser("nginx-json", { fields: ["ip=client.address"] });
    expect(nested(JSON.stringify({ client: { address: "192.0.2.9" }, time_iso8601: "2025-03-12T09:00:00Z", request: "GET /docs HTTP/1.1", http_user_agent: "Mozilla/5.0" }))).toMatchObject({ ok: true, hit: { ip: "192.0.2.9" } });
    expect(DEFAULT_NGINX_JSON_FIELDS.time).toEqual(["time_iso8601", "time_local", "msec", "time", "timestamp", "@timestamp"]);
  });

  it("refuses a --field it cannot use", () => {
    expect(() => createLineParser("nginx-json", { fields: ["agent=ua"] })).toThrow(/--field agent=ua is not NAME=KEY with NAME one of ip, time, request, method, uri, status, userAgent, referrer, accept/);
    expect(() => createLineParser("nginx-json", { fields: ["ip"] })).toThrow(/--field ip is not NAME=KEY/);
    expect(() => createLineParser("combined", { fields: ["ip=client"] })).toThrow("--field applies to --format nginx-json only");
  });
});

describe("importing a log in a custom nginx log_format (--format custom --log-format)", () => {
  it("compiles the format string once and reads each line by it", () => {
    const log = readFile("custom", "custom-format.txt", { logFormat: CUSTOM_FORMAT });
    expect(log.outcomes()).toEqual([
      "/docs/getting-started?utm_source=github",
      "skip: not-a-page-view", // .css
      "/docs/api/authentication", // IPv6, +01:00
      "/docs/guides/webhooks.md", // ClaudeBot
      "skip: method", // POST
      "skip: status", // 301
      "skip: not-a-page-view", // /robots.txt
      "/docs/old-page", // 404
      "/docs/getting-started", // HEAD
      "skip: malformed", // "unknown" as the address
      "skip: malformed", // cut off
      "/docs/changelog", // 304
      "/llms.txt", // GPTBot
    ]);
    expect(log.hit(1)).toEqual({
      timestamp: "2025-03-12T09:14:02.000Z",
      path: "/docs/getting-started?utm_source=github",
      ip: "203.0.113.7",
      userAgent: CHROME,
      accept: HTML_ACCEPT,
      referrer: "https://github.com/acme/widgets",
    });
    expect(log.hit(3)).toEqual({ timestamp: "2025-03-12T09:02:45.000Z", path: "/docs/api/authentication", ip: "2001:db8:85a3::8a2e:370:7334", userAgent: FIREFOX, accept: HTML_ACCEPT });
    expect(log.hit(12)).toEqual({ timestamp: "2025-03-12T12:08:00.000Z", path: "/docs/changelog", ip: "192.0.2.44", userAgent: SAFARI_IOS, accept: HTML_ACCEPT, referrer: "https://docs.acme.com/" });
    expect(log.detail(11)).toBe("does not match --log-format");
  });

  it("reads GoatCounter's example (nginx's combined) like --format combined, escapes included", () => {
    const goatCounter = '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"';
    const lines = fixtureLines("access.log");
    const combined = outcomes("combined", lines);
    // Line 21 is in common log format: it lacks the referer and user agent this format string asks for.
    expect(outcomes("custom", lines, { logFormat: goatCounter })).toEqual(combined.map((outcome, i) => (i === 20 ? "skip: malformed" : outcome)));
    const parse = createLineParser("custom", { logFormat: goatCounter });
    expect(parse(lines[21] ?? "")).toMatchObject({ ok: true, hit: { userAgent: 'Mozilla/5.0 (compatible; "LinkChecker"/10.2.1; +https://linkchecker.github.io/)' } });
  });

  it("reads $msec, ${braced} names, $uri with $args, and ignores variables it does not need", () => {
    const parse = createLineParser("custom", { logFormat: "${remote_addr}|$msec|$upstream_addr|$uri|$args|$status|$http_user_agent" });
    expect(parse("198.51.100.7|1741770842.291|10.0.0.5:3000|/docs/intro|utm_source=mastodon&x=1|200|Mozilla/5.0 (X11)")).toEqual({
      ok: true,
      hit: { timestamp: "2025-03-12T09:14:02.291Z", path: "/docs/intro?utm_source=mastodon", ip: "198.51.100.7", userAgent: "Mozilla/5.0 (X11)" },
    });
  });

  it("says which required fields a format string lacks", () => {
    expect(() => createLineParser("custom", { logFormat: '$remote_addr [$time_local] "$http_referer"' })).toThrow(
      "--log-format has no path ($request, $request_uri or $uri), user agent ($http_user_agent): the import needs each to count a view",
    );
    expect(() => createLineParser("custom", { logFormat: '"$request" "$http_user_agent"' })).toThrow(/has no client address \(\$remote_addr\), time \(\$time_local, \$time_iso8601 or \$msec\)/);
    expect(() => createLineParser("custom")).toThrow("--format custom needs --log-format");
    expect(() => createLineParser("combined", { logFormat: "$remote_addr" })).toThrow("--log-format applies to --format custom only");
  });

  it("keeps the timestamp of a GPTBot fetch in UTC whichever time variable the format has", () => {
    const parse = createLineParser("custom", { logFormat: '$remote_addr [$time_local] "$request" "$http_user_agent"' });
    expect(parse(`20.171.207.130 [12/Mar/2025:04:30:00 -0700] "GET /llms.txt HTTP/1.1" "${GPTBOT}"`)).toMatchObject({ ok: true, hit: { timestamp: "2025-03-12T11:30:00.000Z", path: "/llms.txt" } });
  });
});
