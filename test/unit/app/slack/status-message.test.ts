import { describe, expect, it } from "vitest";
import type { AgentJob } from "../../../../src/shared/api-schemas.js";
import { statusBlocks } from "../../../../src/app/slack/status-message.js";

const job = (forge: "github" | "gitlab", prLink: string) => ({ id: "j1", status: "completed", forge, prLink, waitingFor: null, summary: null, error: null }) as unknown as AgentJob;
const steps = [
  { event: "job.pull_request_opened" as const, at: "2026-11-29T01:00:00.000Z" },
  { event: "job.archived" as const, at: "2026-11-29T02:00:00.000Z" },
];

describe("a Slack job's status message", () => {
  it("speaks the job's forge: a merge request on GitLab, a pull request on GitHub", () => {
    for (const [forge, link, change, short] of [
      ["gitlab", "https://gitlab.example/g/p/-/merge_requests/7", "merge request", "merge request"],
      ["github", "https://github.com/o/r/pull/7", "pull request", "PR"],
    ] as const) {
      const { text, blocks } = statusBlocks({ publicUrl: "https://inkwell.example" }, job(forge, link), "p1", steps as never);
      const shown = JSON.stringify(blocks);
      expect(text).toContain(`${change[0]?.toUpperCase()}${change.slice(1)}: ${link}`);
      expect(shown).toContain(`${change[0]?.toUpperCase()}${change.slice(1)} opened`);
      expect(shown).toContain(`Archived (its ${change} was merged or closed)`);
      expect(shown).toContain(`"text":"Open ${short}"`);
      expect(shown).not.toMatch(forge === "gitlab" ? /pull request|\bPR\b/i : /merge request/i);
    }
  });
});
