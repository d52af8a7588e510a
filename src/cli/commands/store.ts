import { existsSync } from "node:fs";
import path from "node:path";
import { copyDataDirToPostgres, parsePostgresUrl, redactUrl } from "../../app/store/copy-to-postgres.js";
import { StoreCommandError } from "../../app/store/offline-store.js";
import { restoreSnapshot } from "../../app/store/restore.js";
import { describeSnapshot, writeFileAtomic, type SnapshotContents } from "../../app/store/snapshot.js";
import type { CopyProgress } from "../../app/store/store-copy.js";
import { need, print, type CommandContext } from "../command-context.js";
import { CliError } from "../errors.js";
import { table } from "../format.js";
import { takeSnapshot } from "../store-backup.js";
import type { NounRuns } from "./command-usage.js";

/** The data directory the service runs with: --data-dir, else DATA_DIR, else ./data (the service's default). */
const dataDirOf = (ctx: CommandContext) => path.resolve(ctx.values["data-dir"] ?? ctx.io.env.DATA_DIR ?? "./data");

/** The store's own refusals say the operator's next step; anything else (a database error) is reported, not a crash. */
async function storeStep<T>(command: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof CliError) throw error;
    if (error instanceof StoreCommandError) throw new CliError(error.message);
    throw new CliError(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

const n = (count: number) => count.toLocaleString("en");
const rowsOf = (count: number) => `${n(count)} ${count === 1 ? "row" : "rows"}`;

/** Schema version, then every table with rows (the empty ones only counted). */
function contentsText(contents: SnapshotContents): string {
  const filled = contents.tables.filter((t) => t.rows > 0);
  const rows = contents.tables.reduce((sum, t) => sum + t.rows, 0);
  const empty = contents.tables.length - filled.length;
  const head = `Schema version ${contents.schemaVersion}; ${contents.tables.length} tables, ${rowsOf(rows)}${empty > 0 ? ` (${empty} tables empty)` : ""}.`;
  return filled.length === 0 ? head : `${head}\n\n${table(["TABLE", "ROWS"], filled.map((t) => [t.table, n(t.rows)]))}`;
}

/** A --to that is not a PostgreSQL URL is a usage error (exit 2). */
function postgresUrlOption(value: string | undefined): URL {
  try {
    return parsePostgresUrl(value);
  } catch (error) {
    throw new CliError((error as Error).message, 2);
  }
}

/** A line per table when it is done, and every few seconds for a long one. */
function progressPrinter(ctx: CommandContext): (progress: CopyProgress) => void {
  let last = Date.now();
  return (progress) => {
    if (ctx.json) return;
    if (progress.done) {
      ctx.io.stderr(`  ${progress.table}: ${rowsOf(progress.copied)} in ${(progress.ms / 1000).toFixed(1)} s`);
      last = Date.now();
    } else if (Date.now() - last >= 2_000) {
      ctx.io.stderr(`  ${progress.table}: ${n(progress.copied)} of ${n(progress.total)} rows…`);
      last = Date.now();
    }
  };
}

export const store: NounRuns<"store"> = {
  async backup(ctx) {
    const file = path.resolve(need(ctx.args[0], "file to write the snapshot to (e.g. inkwell-backup.tar.gz)"));
    if (existsSync(file) && !ctx.values.force) throw new CliError(`${file} already exists: choose another name, or pass --force to replace it.`, 2);
    const dataDir = dataDirOf(ctx);
    const snapshot = await storeStep("store backup", () => takeSnapshot(ctx, dataDir));
    // Opened before it is written: a file that is there is a snapshot that opens.
    const contents = await storeStep("store backup", () => describeSnapshot(snapshot.bytes, "The snapshot"));
    await storeStep("store backup", async () => writeFileAtomic(file, snapshot.bytes));
    const result = { file, bytes: snapshot.bytes.length, from: snapshot.from, ...contents };
    print(ctx, result, () =>
      [
        `Wrote ${file} (${formatBytes(result.bytes)}), taken from ${snapshot.from}.`,
        contentsText(contents),
        `\nRestore it with the service stopped: inkwell store restore ${file} --data-dir DIR`,
      ].join("\n"),
    );
  },

  async restore(ctx) {
    const file = path.resolve(need(ctx.args[0], "snapshot file (made by inkwell store backup)"));
    const dataDir = dataDirOf(ctx);
    const restored = await storeStep("store restore", () => restoreSnapshot({ file, dataDir, force: ctx.values.force ?? false }));
    print(ctx, { file, dataDir, ...restored }, () =>
      [
        `Restored ${file} into ${restored.storeDir}.`,
        contentsText(restored),
        ...(restored.migrated.length > 0 ? [`\nMigrated to this version: ${restored.migrated.join(", ")}.`] : []),
        ...(restored.movedAside ? [`\nThe store that was there is kept in ${restored.movedAside}; delete it once the restored service works.`] : []),
        `\nStart the service with DATA_DIR=${dataDir}.`,
      ].join("\n"),
    );
  },

  async copy(ctx) {
    const to = postgresUrlOption(ctx.values.to);
    const dataDir = dataDirOf(ctx);
    if (!ctx.json) ctx.io.stderr(`Copying the store in ${dataDir} to ${redactUrl(to)}…`);
    const result = await storeStep("store copy", () => copyDataDirToPostgres({ dataDir, to, force: ctx.values.force ?? false, onProgress: progressPrinter(ctx) }));
    const rows = result.tables.reduce((sum, t) => sum + t.target, 0);
    print(ctx, { to: redactUrl(to), ...result }, () =>
      [
        ...(result.replaced.length > 0 ? [`Replaced what the target held: ${result.replaced.map((r) => `${r.table} ${n(r.rows)}`).join(", ")}.\n`] : []),
        table(["TABLE", "SOURCE", "TARGET"], result.tables.map((t) => [t.table, n(t.source), n(t.target)])),
        `\nCopied ${rowsOf(rows)} in ${result.tables.length} tables (schema version ${result.schemaVersion}) in ${(result.ms / 1000).toFixed(1)} s; every count matches.`,
        ...(result.sourceMigrated.length > 0 ? [`The PGlite store was first migrated to this version (${result.sourceMigrated.join(", ")}), as a start of the service would have.`] : []),
        `Next: set DATABASE_URL to this database and start Inkwell. Keep the PGlite store in ${dataDir} until the service runs well on PostgreSQL.`,
      ].join("\n"),
    );
  },
};
