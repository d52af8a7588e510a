import { describe, expect, it } from "vitest";
import { RunPhases } from "../../../src/action/phases.js";
import { describePhases } from "../../../src/shared/run-phases.js";

describe("RunPhases", () => {
  it("times each phase on the injected clock, in order, counting a phase that throws, and marks background work", async () => {
    let now = 1_000;
    const phases = new RunPhases(() => now);
    await phases.time("claim", async () => {
      now += 412.4;
    });
    await expect(
      phases.time("checkout", async () => {
        now += 1_250;
        throw new Error("git fetch failed");
      }),
    ).rejects.toThrow("git fetch failed");
    phases.add("link checker ready (installed)", 25_204.6, { background: true });
    expect(phases.list()).toEqual([
      { name: "claim", ms: 412 },
      { name: "checkout", ms: 1_250 },
      { name: "link checker ready (installed)", ms: 25_205, background: true },
    ]);
    expect(describePhases(phases.list())).toBe("claim 0.4 s · checkout 1.3 s · link checker ready (installed) 25.2 s (background)");
  });

  it("hands out copies: what a caller does with the list leaves the record as it was", () => {
    const phases = new RunPhases(() => 0);
    phases.add("push", 30);
    const [first] = phases.list();
    if (first) first.ms = 9_999;
    expect(phases.list()).toEqual([{ name: "push", ms: 30 }]);
  });
});
