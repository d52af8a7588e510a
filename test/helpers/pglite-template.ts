import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { migrate } from "../../src/app/store/migrate.js";
import { openPgliteDb, type PgliteDb } from "../../src/app/store/pglite-db.js";

/**
 * A new PGlite spends seconds in initdb; loading a data directory someone already made takes a
 * fraction of that. The global setup makes two such directories once per run (an empty cluster and
 * one with every migration applied) and every test store starts from one of them through the same
 * `loadDataDir` path that `inkwell store restore` uses. Outside vitest (benchmarks bundle these
 * helpers) a process makes its own the first time it needs one.
 */
export type TemplateKind = "empty" | "migrated";

const ENV: Record<TemplateKind, string> = { empty: "INKWELL_TEST_PGLITE_EMPTY", migrated: "INKWELL_TEST_PGLITE_MIGRATED" };

async function dumpTemplate(kind: TemplateKind): Promise<Uint8Array> {
  const db = await openPgliteDb(undefined);
  try {
    if (kind === "migrated") await migrate(db);
    // Kept unzipped: each test store then skips the inflate.
    return new Uint8Array(gunzipSync(await db.snapshot()));
  } finally {
    await db.close();
  }
}

async function writeTemplate(kind: TemplateKind, dir: string): Promise<string> {
  const file = path.join(dir, `${kind}.tar`);
  writeFileSync(file, await dumpTemplate(kind));
  return file;
}

/** Called by the global setup: writes both templates and exports their paths to the workers. */
export async function writePgliteTemplates(): Promise<Record<string, string>> {
  const dir = mkdtempSync(path.join(tmpdir(), "inkwell-pglite-template-"));
  const env: Record<string, string> = {};
  for (const kind of ["empty", "migrated"] as const) env[ENV[kind]] = await writeTemplate(kind, dir);
  return env;
}

const madeHere = new Map<TemplateKind, Promise<string>>();

/** The template's tar file: the global setup's, or one this process writes the first time it is asked. */
function templateFile(kind: TemplateKind): Promise<string> {
  const file = process.env[ENV[kind]];
  if (file) return Promise.resolve(file);
  let made = madeHere.get(kind);
  if (!made) {
    made = writeTemplate(kind, mkdtempSync(path.join(tmpdir(), "inkwell-pglite-template-")));
    madeHere.set(kind, made);
  }
  return made;
}

/**
 * Lays the migrated template out as `<dataDir>/pglite`, what a server that ran before leaves there,
 * so a spawned server skips initdb. Tests of a first start on an empty DATA_DIR leave it empty.
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const file = await templateFile("migrated");
  const target = path.join(dataDir, "pglite");
  mkdirSync(target, { recursive: true });
  // tar notes that it strips the leading "/" of PGlite's member names; only a failure is worth showing.
  execFileSync("tar", ["-xf", file, "-C", target], { stdio: "pipe" });
}

/** An in-memory PGlite started from a template (`migrated` is also confirmed by migrate, as a restart does). */
export async function templatePglite(kind: TemplateKind): Promise<PgliteDb> {
  const db = await openPgliteDb(undefined, { loadDataDir: new Blob([readFileSync(await templateFile(kind))]) });
  if (kind === "migrated") await migrate(db);
  return db;
}
