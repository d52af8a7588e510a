import { describe, expect, it } from "vitest";
import { Heartbeats } from "../../../src/action/heartbeats.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("heartbeats", () => {
  it("sends progress lines, coalescing those asked for while a beat is in flight", async () => {
    const sent: Array<string | undefined> = [];
    let release: () => void = () => undefined;
    const beats = new Heartbeats({
      send: (progress) => {
        sent.push(progress);
        return new Promise((resolve) => (release = () => resolve({ status: "active", cancel: false })));
      },
      periodSeconds: 3600,
      onCancel: () => undefined,
    });
    beats.beat("Working: 3 tool calls");
    beats.beat("Working: 6 tool calls");
    beats.beat("Validating 2 changed file(s)");
    release();
    await tick();
    release();
    await beats.stop();
    expect(sent).toEqual(["Working: 3 tool calls", "Validating 2 changed file(s)"]);
  });

  it("stops the run once when the service says the job no longer wants it", async () => {
    let cancels = 0;
    const beats = new Heartbeats({ send: async () => ({ status: "archived", cancel: true }), periodSeconds: 3600, onCancel: () => cancels++ });
    beats.beat("a");
    await tick();
    beats.beat("b");
    await beats.stop();
    expect(cancels).toBe(1);
  });

  it("keeps going when a beat fails, and says so", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const beats = new Heartbeats({
      send: async () => {
        if (++calls === 1) throw new Error("connection reset");
        return { status: "active", cancel: false };
      },
      periodSeconds: 3600,
      onCancel: () => undefined,
      onError: (error) => errors.push(error),
    });
    beats.beat("one");
    await tick();
    beats.beat("two");
    await beats.stop();
    expect(calls).toBe(2);
    expect(String(errors[0])).toContain("connection reset");
  });
});
