import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validate } from "../../../../src/app/http/body.js";
import { HttpError } from "../../../../src/app/http/http-error.js";
import { unknownFields } from "../../../../src/app/http/unknown-fields.js";

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

describe("validate", () => {
  it("refuses unknown query parameters with a 400 naming them, and unknown body fields only where asked", () => {
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
    expect(() => validate(projectPatch, { rateLimitPerHour: 5 }, "body", { unknown: "refuse" })).toThrow("Unknown field: rateLimitPerHour: unknown field");
  });
});
