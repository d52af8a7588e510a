import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const ADMIN_TOKEN_FILE = "admin-token";

/**
 * The operator token: INKWELL_ADMIN_TOKEN, else the one saved under DATA_DIR, else a new one
 * saved there with mode 0600. Returns where it came from so the log can say (never the token).
 */
export function resolveAdminToken(fromEnv: string | undefined, dataDir: string): { token: string; source: "env" | "file" | "generated"; file?: string } {
  if (fromEnv) return { token: fromEnv, source: "env" };
  const file = path.resolve(dataDir, ADMIN_TOKEN_FILE);
  if (existsSync(file)) {
    const token = readFileSync(file, "utf8").trim();
    if (token.length >= 16) return { token, source: "file", file };
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const token = `inkop_${randomBytes(32).toString("base64url")}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, source: "generated", file };
}
