import { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { queryObject, readJson } from "../../../../src/app/http-kit/body.js";
import type { HttpError } from "../../../../src/app/http-kit/http-error.js";

const request = (body: string, headers: Record<string, string> = {}) => Object.assign(Readable.from([Buffer.from(body)]), { headers }) as unknown as IncomingMessage;
const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as HttpError;
  }
  throw new Error("not refused");
};

describe("readJson: text storage cannot hold", () => {
  it("refuses U+0000 and a lone surrogate anywhere, naming the dotted field (field names too)", async () => {
    const nul = await refusal(readJson(request('{"hits":[{"path":"/a\\u0000"}]}'), 1024));
    expect(nul.status).toBe(400);
    expect(nul.details).toEqual([{ field: "hits.0.path", message: "hits.0.path: must not contain NUL (U+0000) or unpaired surrogate characters" }]);
    expect((await refusal(readJson(request('{"prompt":"\\ud800 cut"}'), 1024))).details?.[0]?.field).toBe("prompt");
    expect((await refusal(readJson(request('{"a\\u0000":1}'), 1024))).message).toMatch(/body: a field name: must not contain NUL/);
    expect((await refusal(readJson(request('"\\u0000"'), 1024))).details?.[0]?.field).toBe("body");
  });

  it("keeps a paired surrogate (an emoji) and everything else as it is", async () => {
    expect(await readJson(request('{"prompt":"\\ud83d\\ude00 ok","n":[1,null,true]}'), 1024)).toEqual({ prompt: "😀 ok", n: [1, null, true] });
  });

  it("makes storable what a route says comes from elsewhere, and leaves a batch's items to their own schema", async () => {
    expect(await readJson(request('{"body":"User-agent: *\\u0000\\nDisallow: /\\ud800"}'), 1024, { storableAt: ["body"] })).toEqual({ body: "User-agent: *\nDisallow: /\uFFFD" });
    expect(await readJson(request('{"entries":[{"text":"\\u0000x"}]}'), 1024, { storableAt: ["*"] })).toEqual({ entries: [{ text: "x" }] });
    expect(await readJson(request('{"hits":[{"path":"/\\u0000"}]}'), 1024, { itemsAlone: "hits" })).toEqual({ hits: [{ path: "/\u0000" }] });
    expect((await refusal(readJson(request('{"effectiveAt":"\\u0000"}'), 1024, { storableAt: ["body"] }))).details?.[0]?.field).toBe("effectiveAt");
  });

  it("names the route's limit in a 413, read before the body when Content-Length says so", async () => {
    const tooLarge = await refusal(readJson(request("{}", { "content-length": String(5 * 1024 * 1024) }), 4 * 1024 * 1024));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.message).toBe("Request body is larger than this route takes: at most 4 MiB (4194304 bytes)");
    expect((await refusal(readJson(request("x".repeat(3000)), 2500))).message).toBe("Request body is larger than this route takes: at most 2500 bytes");
  });
});

describe("queryObject", () => {
  it("refuses a parameter (or its name) that storage cannot hold", () => {
    expect(() => queryObject(new URL("http://x/?pathPrefix=/a%00"))).toThrow(/pathPrefix: must not contain NUL/);
    expect(() => queryObject(new URL("http://x/?a%00=1"))).toThrow(/query parameter's name/);
    expect(queryObject(new URL("http://x/?limit=5"))).toEqual({ limit: "5" });
  });
});

describe("readJson: a body nested as deep as JSON allows", () => {
  it("is read without overflowing the stack, its text still checked", async () => {
    const deep = "[".repeat(50_000) + "]".repeat(50_000);
    expect(Array.isArray(await readJson(request(deep), 1024 * 1024))).toBe(true);
    const deepNul = '{"a":'.repeat(20_000) + '"\\u0000"' + "}".repeat(20_000);
    expect((await refusal(readJson(request(deepNul), 1024 * 1024))).status).toBe(400);
  });
});
