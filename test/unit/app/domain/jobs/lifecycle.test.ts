import { describe, expect, it } from "vitest";
import { transition, type JobTrigger } from "../../../../../src/app/domain/jobs/lifecycle.js";
import type { JobStatus } from "../../../../../src/shared/api-schemas.js";
import { JOB_STATUSES } from "../../../../../src/shared/job-vocabulary.js";

const TRIGGERS: JobTrigger[] = ["message", "run_succeeded", "run_failed", "pr_closed", "cancelled", "wait_expired"];

// docs/architecture.md, "Job lifecycle", written out as the full table so any change to the machine shows up here.
const EXPECTED: Record<JobStatus, Record<JobTrigger, [JobStatus, boolean] | null>> = {
  active: { message: ["active", false], run_succeeded: ["completed", false], run_failed: ["failed", false], pr_closed: ["archived", false], cancelled: ["failed", false], wait_expired: ["archived", false] },
  completed: { message: ["active", true], run_succeeded: null, run_failed: null, pr_closed: ["archived", false], cancelled: null, wait_expired: null },
  failed: { message: ["active", true], run_succeeded: null, run_failed: null, pr_closed: ["archived", false], cancelled: null, wait_expired: null },
  archived: { message: null, run_succeeded: null, run_failed: null, pr_closed: null, cancelled: null, wait_expired: null },
};

describe("job state machine", () => {
  for (const from of JOB_STATUSES) {
    for (const trigger of TRIGGERS) {
      const expected = EXPECTED[from][trigger];
      it(`${from} + ${trigger} → ${expected ? expected[0] + (expected[1] ? " (dispatch)" : "") : "refused"}`, () => {
        const result = transition(from, trigger);
        if (expected) {
          expect(result).toEqual({ ok: true, to: expected[0], dispatch: expected[1] });
        } else {
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.reason).toMatch(from === "archived" ? /archived/ : new RegExp(from));
        }
      });
    }
  }

  it("never leaves archived", () => {
    expect(TRIGGERS.every((trigger) => !transition("archived", trigger).ok)).toBe(true);
  });

  it("only a message on a finished job starts a new run", () => {
    const dispatching = JOB_STATUSES.flatMap((from) => TRIGGERS.map((trigger) => ({ from, trigger, t: transition(from, trigger) }))).filter(
      ({ t }) => t.ok && t.dispatch,
    );
    expect(dispatching.map(({ from, trigger }) => `${from}:${trigger}`).sort()).toEqual(["completed:message", "failed:message"]);
  });
});
