import { afterEach, describe, expect, it, vi } from "vitest";

/** tier.ts reads the environment when it loads: each case loads it afresh. */
async function tier(env: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return import("../../helpers/tier.js");
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("test tiers", () => {
  it("the quick volume unless INKWELL_TEST_TIER is full", async () => {
    expect((await tier({ INKWELL_TEST_TIER: undefined })).volume(5, 500)).toBe(5);
    expect((await tier({ INKWELL_TEST_TIER: "quick" })).FULL_TIER).toBe(false);
    const full = await tier({ INKWELL_TEST_TIER: "full" });
    expect(full.FULL_TIER).toBe(true);
    expect(full.volume(5, 500)).toBe(500);
  });

  it("a named variable, when set, overrides both tiers; empty counts as unset", async () => {
    const { volume } = await tier({ INKWELL_TEST_TIER: "full", SOAK_VIEWS: "1000000", EMPTY_VIEWS: "" });
    expect(volume(5, 500, "SOAK_VIEWS")).toBe(1_000_000);
    expect(volume(5, 500, "EMPTY_VIEWS")).toBe(500);
    expect(volume(5, 500, "UNSET_VIEWS")).toBe(500);
  });

  it("refuses an override that is not a non-negative number, naming it", async () => {
    const { volume } = await tier({ BAD_VIEWS: "lots", NEGATIVE_VIEWS: "-3" });
    expect(() => volume(5, 500, "BAD_VIEWS")).toThrow(/BAD_VIEWS must be a non-negative number, not "lots"/);
    expect(() => volume(5, 500, "NEGATIVE_VIEWS")).toThrow(/NEGATIVE_VIEWS/);
  });
});
