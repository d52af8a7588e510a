import { createHash, randomBytes } from "node:crypto";
import type { Queryable } from "../store/db.js";
import { queryOne, toIso } from "../store/db.js";

export type DashboardUser = { kind: "operator" } | { kind: "github"; id: number; login: string };

/** Binds operator sessions to the operator token: rotating INKWELL_ADMIN_TOKEN ends them all. */
export const operatorTokenHash = (adminToken: string) => createHash("sha256").update(`inkwell-dashboard\n${adminToken}`).digest("hex");

export interface Session {
  user: DashboardUser;
  /** Sent back in every state-changing request (form field or X-CSRF-Token header). */
  csrfToken: string;
  expiresAt: string;
}

interface SessionRow {
  kind: "operator" | "github";
  github_id: string | number | null;
  github_login: string | null;
  csrf_token: string;
  expires_at: unknown;
}

const SECRET_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");
export const randomToken = () => randomBytes(32).toString("base64url");

/** A new session; the returned secret goes in the cookie and is stored only as a hash. */
export async function createSession(db: Queryable, user: DashboardUser, hours: number, tokenHash: string): Promise<{ secret: string; session: Session }> {
  const secret = randomToken();
  const rows = await db.query<SessionRow>(
    `INSERT INTO dashboard_sessions (secret_hash, kind, github_id, github_login, operator_token_hash, csrf_token, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(hours => $7::int)) RETURNING *`,
    [
      hashSecret(secret),
      user.kind,
      user.kind === "github" ? user.id : null,
      user.kind === "github" ? user.login : null,
      user.kind === "operator" ? tokenHash : null,
      randomToken(),
      hours,
    ],
  );
  return { secret, session: toSession(rows[0] as SessionRow) };
}

/**
 * The live session of a cookie's secret; null for anything malformed, unknown, signed out,
 * expired, or an operator session from before the operator token changed.
 */
export async function findSession(db: Queryable, secret: string | undefined, tokenHash: string): Promise<Session | null> {
  if (!secret || !SECRET_FORMAT.test(secret)) return null;
  const row = await queryOne<SessionRow>(
    db,
    `SELECT * FROM dashboard_sessions WHERE secret_hash = $1 AND expires_at > now() AND (kind <> 'operator' OR operator_token_hash = $2)`,
    [hashSecret(secret), tokenHash],
  );
  return row ? toSession(row) : null;
}

export async function endSession(db: Queryable, secret: string | undefined): Promise<void> {
  if (secret && SECRET_FORMAT.test(secret)) await db.query(`DELETE FROM dashboard_sessions WHERE secret_hash = $1`, [hashSecret(secret)]);
}

export async function pruneSessions(db: Queryable): Promise<number> {
  const rows = await db.query(`DELETE FROM dashboard_sessions WHERE expires_at <= now() RETURNING 1`);
  return rows.length;
}

function toSession(row: SessionRow): Session {
  const user: DashboardUser =
    row.kind === "github" ? { kind: "github", id: Number(row.github_id), login: row.github_login ?? "" } : { kind: "operator" };
  return { user, csrfToken: row.csrf_token, expiresAt: toIso(row.expires_at) };
}
