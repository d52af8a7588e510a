/**
 * What a project API key may do (docs/api.md, "Key scopes"): chosen when it is created, fixed for its
 * life. Plain constants, so the CLI's help loads no validator (the schema is in admin-schemas.ts).
 */

/** The scopes a route or tool needs; `all` is what a key may hold besides them. */
export const NEEDED_SCOPES = ["views", "analytics", "jobs"] as const;
export type NeededScope = (typeof NEEDED_SCOPES)[number];

/** `all` is every scope, including any a later version adds: what keys made before scopes hold. */
export const KEY_SCOPES = [...NEEDED_SCOPES, "all"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** In a person's words, for the keys page, the CLI and the manual. */
export const SCOPE_MEANINGS: Record<KeyScope, string> = {
  views: "send page views (POST …/hits)",
  analytics: "read analytics reports and jobs' impact",
  jobs: "create, follow, message and cancel agent jobs",
  all: "everything, including scopes later versions add",
};

/** Whether a key holding `granted` may do what needs `needed`. */
export const grants = (granted: readonly KeyScope[], needed: NeededScope): boolean => granted.includes("all") || granted.includes(needed);
