import { describe, expect, it } from "vitest";
import { HttpError } from "../../../../src/app/http-kit/http-error.js";
import { Router, type Handler } from "../../../../src/app/http-kit/router.js";

const named = (name: string): Handler => async () => ({ status: 200, body: name });

function router() {
  return new Router()
    .on("GET", "/v2/agent/:projectId/job/:id", named("get job"))
    .on("POST", "/v2/agent/:projectId/job/:id/message", named("message"))
    .on("GET", "/v2/agent/:projectId/jobs", named("list"))
    .on("POST", "/v2/agent/:projectId/jobs", named("list by post"))
    .on("GET", "/openapi.json", named("openapi"));
}

describe("Router", () => {
  it("matches exact paths and names each :param from its segment", () => {
    const match = router().match("GET", "/v2/agent/p1/job/j2");
    expect(match?.route).toBe("/v2/agent/:projectId/job/:id");
    expect(match?.params).toEqual({ projectId: "p1", id: "j2" });
  });

  it("does not let a parameter span segments, match a prefix, or match an empty segment", () => {
    const r = router();
    expect(r.match("GET", "/v2/agent/p1/job/j2/extra")).toBeNull();
    expect(r.match("GET", "/v2/agent/p1/x/job/j2")).toBeNull();
    expect(r.match("GET", "/v2/agent//job/j2")).toBeNull();
    expect(r.match("GET", "/openapi.jsonx")).toBeNull();
  });

  it("treats the pattern's dots literally", () => {
    expect(router().match("GET", "/openapiXjson")).toBeNull();
  });

  it("decodes percent-encoded segments; one that does not decode to storable text matches no route", () => {
    const r = router();
    expect(r.match("GET", "/v2/agent/a%20b/job/j")?.params.projectId).toBe("a b");
    for (const segment of ["%E0%A4%A", "%00", "a%00b", "%ED%A0%80"]) expect(r.match("GET", `/v2/agent/${segment}/job/j`), segment).toBeNull();
  });

  it("answers HEAD with the GET route", async () => {
    const match = router().match("HEAD", "/openapi.json");
    expect(await match?.handler({} as never)).toEqual({ status: 200, body: "openapi" });
  });

  it("picks the route of the request's method when several share a path", async () => {
    const match = router().match("POST", "/v2/agent/p/jobs");
    expect(await match?.handler({} as never)).toMatchObject({ body: "list by post" });
  });

  it("refuses a known path with another method: 405 listing the allowed ones in Allow", () => {
    let error: unknown;
    try {
      router().match("DELETE", "/v2/agent/p/job/j/message");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(405);
    expect((error as HttpError).headers).toEqual({ Allow: "POST" });
  });

  it("lists every route it was given (the OpenAPI test checks each is documented)", () => {
    expect(router().list()).toHaveLength(5);
    expect(router().list()[0]).toEqual({ method: "GET", pattern: "/v2/agent/:projectId/job/:id" });
  });
});
