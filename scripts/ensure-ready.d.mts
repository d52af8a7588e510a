export interface InstalledRecord {
  mtime: number;
  hasDev: boolean;
}
export function installCommand(options: { lockMtime: number; installed: InstalledRecord | null; withDev: boolean }): string[] | null;
export function expectedPackages(
  lock: { packages?: Record<string, { dev?: boolean; os?: string[]; cpu?: string[]; libc?: string[] }> },
  options: { withDev: boolean; platform?: string; arch?: string; libc?: string | undefined },
): number;
export function installProgress(installed: number, total: number): string;
export function ensureReady(options: { withDev: boolean }): Promise<void>;
