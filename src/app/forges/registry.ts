import type { Forges } from "./forge.js";
import { gitHubForge, type GitHubForgeDeps } from "./github/forge.js";
import { gitLabForge } from "./gitlab/forge.js";

/**
 * The forges this server speaks to, one of each name (docs/architecture.md, "Forges"): the only
 * module that names every forge's folder. A new forge is a folder under `forges/` and a line here.
 */
export function createForges(deps: GitHubForgeDeps): Forges {
  return {
    github: gitHubForge(deps),
    gitlab: gitLabForge(deps),
  };
}
