import type { ToolArchive } from "./link-checker.js";

/**
 * GitHub's Actions cache for the link checker's install, where the runner offers one (hosted
 * runners start with an empty npm cache every time). Loaded only when a run needs it.
 */
export async function actionsCacheArchive(): Promise<ToolArchive | null> {
  const cache = await import("@actions/cache");
  if (!cache.isFeatureAvailable()) return null;
  return {
    async restore(directory, key) {
      return (await cache.restoreCache([directory], key)) !== undefined;
    },
    async save(directory, key) {
      await cache.saveCache([directory], key);
    },
  };
}
