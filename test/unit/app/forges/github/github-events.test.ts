import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { EVENTS, isHandledEvent, SUBSCRIBED_EVENTS } from "../../../../../src/app/forges/github/github-events.js";
import { toQueuedEvent } from "../../../../../src/app/forges/github/webhook-events.js";

describe("the GitHub events the App handles", () => {
  it("subscribes to exactly app.yml's default_events, and handles installation besides", () => {
    const app = parse(readFileSync("app.yml", "utf8")) as { default_events: string[] };
    expect([...SUBSCRIBED_EVENTS].sort()).toEqual([...app.default_events].sort());
    expect([...EVENTS].sort()).toEqual(["installation", ...app.default_events].sort());
  });

  it("has a case for every handled event: a payload of the wrong shape is ignored, never thrown on", () => {
    for (const name of EVENTS) {
      expect(isHandledEvent(name)).toBe(true);
      expect(toQueuedEvent(name, { action: "created" }), name).toBeNull();
    }
    expect(isHandledEvent("push")).toBe(false);
    expect(toQueuedEvent("push", { ref: "refs/heads/main" })).toBeNull();
  });
});
