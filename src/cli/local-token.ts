import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ADMIN_TOKEN_FILE } from "../app/admin-token.js";
import { LOCK_FILE, readLockHolder } from "../app/store/data-dir-lock.js";

/** The checkout or package the CLI runs from: `npm start` keeps its data in `./data` there by default. */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The data directories a local server may keep its generated operator token in, most specific first. */
export function candidateDataDirs(env: NodeJS.ProcessEnv, cwd: string, packageRoot = PACKAGE_ROOT): string[] {
  const dirs = [env.DATA_DIR, "./data", path.join(packageRoot, "data")].filter((dir): dir is string => Boolean(dir)).map((dir) => path.resolve(cwd, dir));
  return [...new Set(dirs)];
}

/**
 * The operator token of a server on this machine, from any directory: the data directory whose lock
 * says it is serving the URL's port, else the first one holding a token. Only for loopback URLs.
 */
export function localOperatorToken(baseUrl: string, env: NodeJS.ProcessEnv, cwd = process.cwd(), packageRoot = PACKAGE_ROOT): string | undefined {
  const url = new URL(baseUrl);
  if (!LOCAL_HOSTS.has(url.hostname)) return undefined;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const withToken = candidateDataDirs(env, cwd, packageRoot).filter((dir) => existsSync(path.join(dir, ADMIN_TOKEN_FILE)));
  const serving = withToken.find((dir) => readLockHolder(path.join(dir, LOCK_FILE))?.port === port);
  const dir = serving ?? withToken[0];
  return dir ? readFileSync(path.join(dir, ADMIN_TOKEN_FILE), "utf8").trim() : undefined;
}
