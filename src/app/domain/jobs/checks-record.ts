import type { JobChecks } from "../../../shared/api-schemas.js";
import type { CheckState } from "../../../shared/job-vocabulary.js";

/** A check the job shows as failing: its name and its page. */
export interface FailingCheck {
  name: string;
  url: string | null;
}

/** The `checks` column of `jobs` (JSON): what the docs repository's own checks say of the job's head (`head_sha`). */
export interface StoredChecks {
  state: CheckState;
  failing: FailingCheck[];
  /** Repair rounds failing checks started for this job, over all its heads. */
  rounds: number;
  /** When the run reported the push (ISO): a head with no check after the grace period counts as passed. */
  pushedAt: string;
  /** The change request stays a draft whatever the checks say (the job or the workflow asked for one, or validation problems remain). */
  keepDraft: boolean;
}

export const storedChecksOf = (stored: string | null): StoredChecks | null => (stored ? (JSON.parse(stored) as StoredChecks) : null);

/** The job's `checks` as the API shows them; null while they are not watched. */
export function jobChecksOf(stored: string | null, headSha: string | null): JobChecks | null {
  const checks = storedChecksOf(stored);
  if (!checks || !headSha) return null;
  return { state: checks.state, sha: headSha, failing: checks.failing, rounds: checks.rounds };
}
