import { detectDocsProject, listPageFiles, type DocsProject } from "../docs/framework.js";
import { runGate, type GateResult } from "./gate.js";

/**
 * The gate over a whole docs site rather than one run's changes: every page compiles, has valid
 * frontmatter and links that resolve, the navigation names only pages that exist and lists every
 * page, and (Mintlify) docs.json passes Mintlify's schema. Inkwell checks its own manual with it.
 */
export async function checkDocsSite(repoRoot: string, docsDir?: string): Promise<GateResult & { project: DocsProject }> {
  const project = detectDocsProject(repoRoot, docsDir);
  const pages = listPageFiles(repoRoot, project.docsDir, project.pageExtensions);
  const result = await runGate({
    repoRoot,
    project,
    changedThisRun: [...pages, ...project.navigationFiles],
    // As if every page were new: each must then be reachable from the navigation.
    branchChanges: pages.map((page) => ({ path: page, status: "added" as const })),
    navigationBefore: null,
  });
  return { ...result, project };
}
