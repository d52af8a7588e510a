/**
 * The suite's two tiers (test/README.md). `npm test` runs the quick tier: every check, at volumes
 * that prove the behaviour. `npm run test:all` (CI) sets INKWELL_TEST_TIER=full: the same checks
 * at soak volumes, plus the files only the full tier runs (vitest.config.ts).
 */
export const FULL_TIER = process.env.INKWELL_TEST_TIER === "full";

/**
 * How much of something a test does: `quick` in the quick tier, `full` in the full one; an
 * environment variable, when named and set, overrides both (to scale a soak run by hand).
 */
export function volume(quick: number, full: number, override?: string): number {
  const given = override ? process.env[override] : undefined;
  if (given !== undefined && given !== "") {
    const value = Number(given);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${override} must be a non-negative number, not ${JSON.stringify(given)}`);
    return value;
  }
  return FULL_TIER ? full : quick;
}
