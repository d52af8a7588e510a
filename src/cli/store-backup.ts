import { holdsStore, pgliteDirOf } from "../app/store/offline-store.js";
import { SNAPSHOT_PATH, snapshotDataDir } from "../app/store/snapshot.js";
import type { CommandContext } from "./command-context.js";
import { CliError } from "./errors.js";

/** The service the other commands talk to (run-cli.ts resolves it the same way). */
export const serviceUrlOf = (ctx: CommandContext) => ctx.values.url ?? ctx.io.env.INKWELL_URL ?? "http://localhost:3000";

export interface TakenSnapshot {
  bytes: Uint8Array;
  /** Where it came from, for the operator. */
  from: string;
}

/**
 * A snapshot from the running service (its operator endpoint), or, when no service answers at
 * all, from the data directory directly, which then must not be locked by a service.
 */
export async function takeSnapshot(ctx: CommandContext, dataDir: string): Promise<TakenSnapshot> {
  const serviceUrl = serviceUrlOf(ctx);
  const token = ctx.operator.kind === "operator" ? ctx.operator.token : undefined;
  let response: Response;
  try {
    response = await ctx.io.fetch(new URL(SNAPSHOT_PATH, serviceUrl), { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch (error) {
    // Nothing listens there: a store no service runs on can be read where it lies.
    if (!holdsStore(pgliteDirOf(dataDir))) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new CliError(
        `No Inkwell service answered at ${serviceUrl} (${cause}), and ${pgliteDirOf(dataDir)} holds no store to read directly. ` +
          "Is the service running? Set --url (or INKWELL_URL) to it, or --data-dir (or DATA_DIR) to its data directory.",
      );
    }
    return { bytes: await snapshotDataDir(dataDir, serviceUrl), from: `${dataDir} directly (no service answered at ${serviceUrl})` };
  }
  if (!response.ok) throw new CliError(await failure(response, serviceUrl, token !== undefined));
  return { bytes: new Uint8Array(await response.arrayBuffer()), from: `the service at ${serviceUrl}` };
}

async function failure(response: Response, serviceUrl: string, hadToken: boolean): Promise<string> {
  if (response.status === 401 && !hadToken) {
    return "No operator token: pass --token or set INKWELL_ADMIN_TOKEN (on the server's machine it is in DATA_DIR/admin-token)";
  }
  if (response.status === 404) return `${serviceUrl} has no snapshot endpoint (${SNAPSHOT_PATH}): is it an Inkwell server of this version? Check --url.`;
  const text = await response.text();
  let message = response.statusText;
  try {
    message = (JSON.parse(text) as { error?: string }).error ?? message;
  } catch {
    // Not Inkwell's JSON error: the status says enough.
  }
  return `${response.status}: ${message}`;
}
