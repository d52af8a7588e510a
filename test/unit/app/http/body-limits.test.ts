import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BODY_LIMITS } from "../../../../src/app/http/body-limits.js";

/** How docs/api.md writes a size. */
const written = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`);

describe("each route's body limit is the one the manual documents", () => {
  const manual = readFileSync("docs/api.md", "utf8").replace(/\s+/g, " ");
  const documented: Record<keyof typeof BODY_LIMITS, string> = {
    beacon: "a page view from the beacon",
    hits: "a batch of hits",
    transcript: "a run's transcript",
    robotsVersion: "a robots.txt version",
    slack: "one of Slack's deliveries",
  };
  it.each(Object.entries(BODY_LIMITS) as Array<[keyof typeof BODY_LIMITS, number]>)("%s: %i bytes", (route, bytes) => {
    expect(manual).toContain(`${documented[route]} ${written(bytes)}`);
  });
});
