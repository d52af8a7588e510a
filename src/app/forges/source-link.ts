import type { ForgeName } from "../../shared/forge-words.js";
import type { Queryable } from "../store/db.js";

/** A forge's side of the source automation: whether a code repository may be linked, and its link undone when the automation goes. */
export interface SourceLinkForge {
  /** Checks (and on GitLab registers the webhook for) a source repository; returns the name its merges arrive under. */
  link(projectId: string, repository: string, user: string | null): Promise<string>;
  /** In the transaction that deletes a source automation: what removes its link on the forge, if anything does. */
  queueUnlink(tx: Queryable, projectId: string, sourceRepo: string): Promise<void>;
}

/** Each forge's source side, by name. */
type SourceLinks = Readonly<Record<ForgeName, { sources: SourceLinkForge }>>;

/** A source automation's repository, linked on the project's forge (docs/automations.md); returns the name its merges arrive under. */
export const linkSource = (forges: SourceLinks, project: { id: string; forge: ForgeName }, repository: string, user: string | null): Promise<string> =>
  forges[project.forge].sources.link(project.id, repository, user);

/** In the transaction that deleted a source automation: each forge queues what removes its link, if it registered one. */
export async function queueSourceUnlink(forges: SourceLinks, tx: Queryable, projectId: string, sourceRepo: string | null): Promise<void> {
  if (!sourceRepo) return;
  for (const forge of Object.values(forges)) await forge.sources.queueUnlink(tx, projectId, sourceRepo);
}
