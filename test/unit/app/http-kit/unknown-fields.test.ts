import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validate } from "../../../../src/app/http-kit/body.js";
import { HttpError } from "../../../../src/app/http-kit/http-error.js";
import { isClosed, unknownFields } from "../../../../src/app/http-kit/unknown-fields.js";

const reportQuery = z.object({ dateFrom: z.string().optional(), dateTo: z.string().optional(), limit: z.coerce.number().optional(), pathPrefix: z.string().optional() });
const projectPatch = z
  .object({ analytics: z.object({ allowedOrigins: z.array(z.string()).optional(), saltWindow: z.enum(["day", "week", "month"]).optional() }).optional(), allowedModels: z.array(z.string()).optional() })
  .refine(() => true);

describe("unknownFields", () => {
  it("names each unknown name with the known one it most likely meant, nested objects included", () => {
    expect(unknownFields(reportQuery, { datefrom: "2026-01-01", limt: "5", colour: "x", dateTo: "2026-02-01" })).toEqual([
      { field: "datefrom", suggestion: "dateFrom" },
      { field: "limt", suggestion: "limit" },
      { field: "colour", suggestion: null },
    ]);
    expect(unknownFields(projectPatch, { analytics: { saltwindow: "day" }, rateLimitPerHour: 5 })).toEqual([
      { field: "analytics.saltwindow", suggestion: "saltWindow" },
      { field: "rateLimitPerHour", suggestion: null },
    ]);
  });

  it("reads through optional, default, pipe and union wrappers, and leaves schemas that are not objects alone", () => {
    const wrapped = z.union([z.object({ kind: z.literal("a"), label: z.string() }), z.object({ kind: z.literal("b"), cron: z.string() })]).transform((v) => v);
    expect(unknownFields(wrapped, { kind: "a", lable: "x" })).toEqual([{ field: "lable", suggestion: "label" }]);
    expect(unknownFields(z.string(), { anything: 1 })).toEqual([]);
    // Names of Object's own members are unknown fields like any other, not a way into the prototype.
    expect(unknownFields(reportQuery, JSON.parse('{"__proto__": {"x": 1}, "constructor": 1, "toString": "y"}'))).toEqual([
      { field: "__proto__", suggestion: null },
      { field: "constructor", suggestion: null },
      { field: "toString", suggestion: null },
    ]);
  });
});

describe("isClosed", () => {
  it("is true of a strict object through wrappers, and of a union only when every option is strict", () => {
    const a = z.strictObject({ kind: z.literal("a") });
    const b = z.object({ kind: z.literal("b") });
    expect([isClosed(a), isClosed(a.optional()), isClosed(a.default({ kind: "a" })), isClosed(a.transform((v) => v)), isClosed(b.strict())]).toEqual([true, true, true, true, true]);
    expect([isClosed(b), isClosed(b.passthrough()), isClosed(z.string())]).toEqual([false, false, false]);
    expect(isClosed(z.discriminatedUnion("kind", [a, b.strict()]))).toBe(true);
    expect(isClosed(z.discriminatedUnion("kind", [a, b]))).toBe(false);
  });
});

describe("validate", () => {
  it("refuses unknown query parameters with a 400 naming them, and unknown body fields only where the schema is strict", () => {
    const error = (() => {
      try {
        validate(reportQuery, { datefrom: "2026-01-01" }, "query");
      } catch (caught) {
        return caught as HttpError;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(HttpError);
    expect(error?.status).toBe(400);
    expect(error?.message).toBe("Unknown query parameter: datefrom: unknown query parameter; did you mean 'dateFrom'?");
    expect(error?.details).toEqual([{ field: "datefrom", message: "datefrom: unknown query parameter; did you mean 'dateFrom'?" }]);
    expect(validate(projectPatch, { extra: 1 }, "body")).toEqual({});
    const strictPatch = z.strictObject({ allowedModels: z.array(z.string()).optional() });
    expect(() => validate(strictPatch, { rateLimitPerHour: 5 }, "body")).toThrow("Unknown field: rateLimitPerHour: unknown field");
  });
});
