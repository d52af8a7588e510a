import type { Automation, AutomationConfig, AutomationKind } from "../../../shared/automation-schemas.js";
import { automationConfigSchema } from "../../../shared/automation-schemas.js";
import type { Queryable } from "../../store/db.js";
import { queryOne, toIso, toIsoOrNull } from "../../store/db.js";
import { ConflictError, notFound } from "../errors.js";
import { lockProject } from "../projects.js";
import { newId } from "../ids.js";
import { nextFiring } from "./cron.js";

export interface AutomationRow {
  id: string;
  project_id: string;
  kind: AutomationKind;
  config: string;
  source_repo: string | null;
  paused: boolean;
  next_run_at: unknown;
  last_fired_at: unknown;
  last_outcome: string | null;
  created_at: unknown;
}

/**
 * Starts the keys automations give their jobs and events (idempotency keys, `job_messages.event_key`):
 * with a space, which no API Idempotency-Key has, so a client cannot take an automation's key first.
 */
export const AUTOMATION_KEY_PREFIX = "automation ";

export const configOf = (row: Pick<AutomationRow, "config">): AutomationConfig => automationConfigSchema.parse(JSON.parse(row.config));

/** The source automations a merge with these labels is for: those without a label, and those whose label it carries (any case). */
export function sourceAutomationsWanting(automations: readonly AutomationRow[], labels: readonly string[]): { automation: AutomationRow; config: Extract<AutomationConfig, { kind: "source" }> }[] {
  return automations.flatMap((automation) => {
    const config = configOf(automation);
    const wanted = config.kind === "source" && (!config.label || labels.some((label) => label.toLowerCase() === config.label?.toLowerCase()));
    return wanted && config.kind === "source" ? [{ automation, config }] : [];
  });
}

export const toAutomation = (row: AutomationRow): Automation => ({
  id: row.id,
  projectId: row.project_id,
  config: configOf(row),
  paused: row.paused,
  nextRunAt: row.paused ? null : toIsoOrNull(row.next_run_at),
  lastFiredAt: toIsoOrNull(row.last_fired_at),
  lastOutcome: row.last_outcome,
  createdAt: toIso(row.created_at),
});

/** A project's new automation. A code repository feeds a project once; a project has one issues automation. */
/** `sourceRepo`: the name a source's merges arrive under when it is not `config.repository` (a GitLab project's is `host/path`). */
export async function createAutomation(tx: Queryable, projectId: string, config: AutomationConfig, now: Date, sourceRepo = config.kind === "source" ? config.repository : null): Promise<Automation> {
  // Under the project's lock, two creates at once cannot both pass the check below.
  await lockProject(tx, projectId);
  const source = sourceRepo?.toLowerCase() ?? null;
  const taken = await queryOne<{ id: string }>(
    tx,
    `SELECT id FROM automations WHERE project_id = $1 AND kind = $2 AND (kind = 'issues' OR source_repo = $3)`,
    [projectId, config.kind, source],
  );
  if (taken) {
    throw new ConflictError(
      config.kind === "issues"
        ? `This project already has an issues automation (${taken.id}): delete it first to change it`
        : `${config.kind === "source" ? config.repository : "This"} already feeds this project (${taken.id})`,
    );
  }
  const nextRunAt = config.kind === "schedule" ? nextFiring(config.cron, now) : null;
  const [row] = await tx.query<AutomationRow>(
    `INSERT INTO automations (id, project_id, kind, config, source_repo, next_run_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [newId(), projectId, config.kind, JSON.stringify(config), source, nextRunAt],
  );
  return toAutomation(row as AutomationRow);
}

export async function listAutomations(db: Queryable, projectId: string): Promise<Automation[]> {
  const rows = await db.query<AutomationRow>(`SELECT * FROM automations WHERE project_id = $1 ORDER BY created_at, id`, [projectId]);
  return rows.map(toAutomation);
}

async function automationOf(db: Queryable, projectId: string, automationId: string, lock = false): Promise<AutomationRow> {
  const row = await queryOne<AutomationRow>(db, `SELECT * FROM automations WHERE id = $1 AND project_id = $2${lock ? " FOR UPDATE" : ""}`, [automationId, projectId]);
  if (!row) throw notFound("Automation");
  return row;
}

export async function getAutomation(db: Queryable, projectId: string, automationId: string): Promise<Automation> {
  return toAutomation(await automationOf(db, projectId, automationId));
}

/**
 * Pauses or resumes. A schedule resumed is due at its next firing from now: the firings it missed
 * while paused are not made up.
 */
export async function setAutomationPaused(tx: Queryable, projectId: string, automationId: string, paused: boolean, now: Date): Promise<Automation> {
  const row = await automationOf(tx, projectId, automationId, true);
  const config = configOf(row);
  const nextRunAt = config.kind === "schedule" && !paused && row.paused ? nextFiring(config.cron, now) : row.next_run_at;
  const [updated] = await tx.query<AutomationRow>(`UPDATE automations SET paused = $2, next_run_at = $3, updated_at = now() WHERE id = $1 RETURNING *`, [
    row.id,
    paused,
    nextRunAt,
  ]);
  return toAutomation(updated as AutomationRow);
}

/** Makes a schedule due now: the next scan of any instance fires it (once), as if its time had come. */
export async function fireScheduleNow(tx: Queryable, projectId: string, automationId: string, now: Date): Promise<Automation> {
  const row = await automationOf(tx, projectId, automationId, true);
  if (row.kind !== "schedule") throw new ConflictError("Only a schedule can be run now; the other automations start on GitHub events");
  if (row.paused) throw new ConflictError("The schedule is paused: resume it first");
  const [updated] = await tx.query<AutomationRow>(`UPDATE automations SET next_run_at = $2, updated_at = now() WHERE id = $1 RETURNING *`, [row.id, now]);
  return toAutomation(updated as AutomationRow);
}

/** Stops it for good; its jobs stay, with their trigger. Returns the source repository it linked, if any (a forge may unhook it). */
export async function deleteAutomation(tx: Queryable, projectId: string, automationId: string): Promise<{ sourceRepo: string | null }> {
  const row = await automationOf(tx, projectId, automationId, true);
  await tx.query(`DELETE FROM automations WHERE id = $1`, [automationId]);
  return { sourceRepo: row.kind === "source" ? row.source_repo : null };
}

/** Whether one of the project's source automations links this repository (as its merges arrive). */
export async function isSourceLinked(db: Queryable, projectId: string, sourceRepo: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM automations WHERE project_id = $1 AND kind = 'source' AND source_repo = $2`, [projectId, sourceRepo.toLowerCase()]);
  return rows.length > 0;
}

/** What a firing did, for the automation's listing; a schedule's next time, or `pause` for one that cannot fire again. */
export async function recordFiring(tx: Queryable, automationId: string, outcome: string, now: Date, next: { nextRunAt?: Date; pause?: true } = {}): Promise<void> {
  await tx.query(
    `UPDATE automations SET last_fired_at = $2, last_outcome = $3, next_run_at = COALESCE($4, next_run_at), paused = paused OR $5, updated_at = now() WHERE id = $1`,
    [automationId, now, outcome.slice(0, 500), next.nextRunAt ?? null, next.pause === true],
  );
}
