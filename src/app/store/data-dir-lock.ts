import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

export const LOCK_FILE = "inkwell.lock";

/** Who holds a data directory, as written in its lock file. */
export interface LockHolder {
  pid: number;
  host: string;
  port: number | null;
  startedAt: string;
}

/** Another live process serves this data directory: PGlite is one process's embedded database. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const where = holder.port === null ? "still starting" : `listening on port ${holder.port}`;
    super(
      `DATA_DIR ${dataDir} is in use by Inkwell process ${holder.pid} on ${holder.host} (${where}, since ${holder.startedAt}). ` +
        "PGlite is an embedded database that one process at a time may open: stop that process, or give this one another DATA_DIR, " +
        "or set DATABASE_URL to run several instances over one PostgreSQL.",
    );
  }
}

/** Whether a process exists (EPERM: it does, but is someone else's). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The lock that makes one process the only one on a PGlite data directory. Taken before the store
 * is opened; a lock left by a process that is gone (killed, crashed, a container restarted with
 * the same PID, a container recreated under another hostname) is taken over. Only processes on
 * this host can be checked: do not share a data directory over a network file system.
 */
export class DataDirLock {
  readonly #file: string;
  #holder: LockHolder;
  /** The first directory acquire had to make for the data directory, if it did. */
  #madeDir: string | undefined;

  private constructor(
    readonly dataDir: string,
    holder: LockHolder,
  ) {
    this.#file = path.join(dataDir, LOCK_FILE);
    this.#holder = holder;
  }

  /** Takes the lock or throws DataDirInUseError; `tookOverFrom` names a dead holder whose lock was taken. */
  static acquire(dataDir: string, isAlive: (pid: number) => boolean = isProcessAlive): { lock: DataDirLock; tookOverFrom: LockHolder | null } {
    const madeDir = mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const lock = new DataDirLock(dataDir, { pid: process.pid, host: hostname(), port: null, startedAt: new Date().toISOString() });
    lock.#madeDir = madeDir;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (lock.#create()) return { lock, tookOverFrom: null };
      const holder = readLockHolder(lock.#file);
      // Another host's PID cannot be checked; that is almost always this container recreated (a new hostname over the same volume).
      if (holder && holder.pid !== process.pid && holder.host === hostname() && isAlive(holder.pid)) throw new DataDirInUseError(dataDir, holder);
      if (lock.#removeStale(holder) && lock.#create()) return { lock, tookOverFrom: holder };
    }
    throw new Error(`Could not take the lock ${lock.#file}: other processes keep taking it. Start one Inkwell process per DATA_DIR.`);
  }

  /** Says which port this process serves, so a second process can tell the operator. */
  recordPort(port: number): void {
    this.#holder = { ...this.#holder, port };
    const temp = `${this.#file}.${randomBytes(6).toString("hex")}`;
    writeFileSync(temp, JSON.stringify(this.#holder), { mode: 0o600 });
    renameSync(temp, this.#file);
  }

  release(): void {
    const holder = readLockHolder(this.#file);
    if (holder?.pid === this.#holder.pid && holder.startedAt === this.#holder.startedAt) unlinkSync(this.#file);
  }

  /**
   * Releases the lock and removes the directories acquire made, for a start that failed before it
   * wrote anything: the operator finds the disk as it was. A directory something else put a file
   * in since is left.
   */
  abandon(): void {
    this.release();
    if (!this.#madeDir) return;
    const made = path.resolve(this.#madeDir);
    for (let dir = path.resolve(this.dataDir); dir.startsWith(made); dir = path.dirname(dir)) {
      try {
        rmdirSync(dir);
      } catch {
        return;
      }
    }
  }

  /** Creates the lock file with its content in one step (link fails when the file exists). */
  #create(): boolean {
    const temp = `${this.#file}.${randomBytes(6).toString("hex")}`;
    writeFileSync(temp, JSON.stringify(this.#holder), { mode: 0o600 });
    try {
      linkSync(temp, this.#file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    } finally {
      unlinkSync(temp);
    }
  }

  /**
   * Moves a dead holder's lock aside, making sure what was moved is the lock that was judged dead
   * (another process may have taken it over meanwhile: then it is put back).
   */
  #removeStale(judged: LockHolder | null): boolean {
    const aside = `${this.#file}.stale-${randomBytes(6).toString("hex")}`;
    try {
      renameSync(this.#file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
      throw error;
    }
    const moved = readLockHolder(aside);
    if (judged === null || (moved?.pid === judged.pid && moved.startedAt === judged.startedAt)) {
      unlinkSync(aside);
      return true;
    }
    try {
      linkSync(aside, this.#file);
    } catch {
      // Someone took the lock in between; theirs stands.
    }
    unlinkSync(aside);
    return false;
  }
}

/** Who holds a data directory's lock file, as it recorded itself; null when the file is missing or unreadable. */
export function readLockHolder(file: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<LockHolder>;
    if (typeof parsed.pid !== "number" || typeof parsed.startedAt !== "string") return null;
    return { pid: parsed.pid, host: String(parsed.host ?? hostname()), port: typeof parsed.port === "number" ? parsed.port : null, startedAt: parsed.startedAt };
  } catch {
    return null;
  }
}
