import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirInUseError, DataDirLock, isProcessAlive, LOCK_FILE } from "../../../../src/app/store/data-dir-lock.js";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "inkwell-lock-"));
const lockFile = (dir: string) => path.join(dir, LOCK_FILE);
const holderIn = (dir: string) => JSON.parse(readFileSync(lockFile(dir), "utf8"));
const alive = () => true;
const dead = () => false;

describe("DataDirLock", () => {
  it("takes a free directory and records this process, then its port", () => {
    const dir = dataDir();
    const { lock, tookOverFrom } = DataDirLock.acquire(dir, alive);
    expect(tookOverFrom).toBeNull();
    expect(holderIn(dir)).toMatchObject({ pid: process.pid, host: hostname(), port: null });
    lock.recordPort(4321);
    expect(holderIn(dir).port).toBe(4321);
  });

  it("refuses while a live process holds it, saying which process and port", () => {
    const dir = dataDir();
    writeFileSync(lockFile(dir), JSON.stringify({ pid: 999_999, host: hostname(), port: 3000, startedAt: "2026-11-23T10:00:00.000Z" }));
    let error: unknown;
    try {
      DataDirLock.acquire(dir, alive);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect((error as Error).message).toMatch(/in use by Inkwell process 999999 .*listening on port 3000/);
    expect(holderIn(dir).pid).toBe(999_999);
  });

  it("takes over the lock of a process that is gone, and says whose it was", () => {
    const dir = dataDir();
    const stale = { pid: 999_998, host: hostname(), port: 3000, startedAt: "2026-11-23T10:00:00.000Z" };
    writeFileSync(lockFile(dir), JSON.stringify(stale));
    const { tookOverFrom } = DataDirLock.acquire(dir, dead);
    expect(tookOverFrom).toEqual(stale);
    expect(holderIn(dir).pid).toBe(process.pid);
  });

  it("takes over a lock written by this very PID (a container restarted), another host's, or an unreadable one", () => {
    for (const content of [
      JSON.stringify({ pid: process.pid, host: hostname(), port: 3000, startedAt: "2026-01-01T00:00:00.000Z" }),
      JSON.stringify({ pid: 1, host: "old-container", port: 3000, startedAt: "2026-01-01T00:00:00.000Z" }),
      "not json",
    ]) {
      const dir = dataDir();
      writeFileSync(lockFile(dir), content);
      expect(DataDirLock.acquire(dir, alive).lock).toBeInstanceOf(DataDirLock);
      expect(holderIn(dir).pid).toBe(process.pid);
    }
  });

  it("releases only its own lock", () => {
    const dir = dataDir();
    const { lock } = DataDirLock.acquire(dir, alive);
    lock.release();
    expect(existsSync(lockFile(dir))).toBe(false);
    const first = DataDirLock.acquire(dir, alive).lock;
    writeFileSync(lockFile(dir), JSON.stringify({ pid: 999_997, host: hostname(), port: null, startedAt: "2026-11-23T10:00:00.000Z" }));
    first.release();
    expect(holderIn(dir).pid).toBe(999_997);
  });

  it("abandoned after a failed start, removes the directories it made and nothing else", () => {
    const parent = dataDir();
    const fresh = path.join(parent, "new", "data");
    DataDirLock.acquire(fresh, alive).lock.abandon();
    expect(existsSync(path.join(parent, "new"))).toBe(false);
    expect(existsSync(parent)).toBe(true);

    const existing = dataDir();
    writeFileSync(path.join(existing, "admin-token"), "kept\n");
    DataDirLock.acquire(existing, alive).lock.abandon();
    expect(readFileSync(path.join(existing, "admin-token"), "utf8")).toBe("kept\n");
    expect(existsSync(lockFile(existing))).toBe(false);
  });

  it("tells live processes from gone ones", () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(2 ** 22 + 12345)).toBe(false);
  });
});
