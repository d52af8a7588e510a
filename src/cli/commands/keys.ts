import type { ApiKeyView, CreatedKeyView, OAuthGrantView as GrantView } from "../../shared/admin-schemas.js";
import { enc, need, print, projectOf } from "../command-context.js";
import { table } from "../format.js";
import type { NounRuns } from "./command-usage.js";

export const keys: NounRuns<"keys"> = {
  async create(ctx) {
    const projectId = projectOf(ctx);
    const created = await ctx.client.request<CreatedKeyView>("POST", `/admin/projects/${enc(projectId)}/keys`, ctx.operator, {
      // Without --scope the server's default applies: all.
      body: { ...(ctx.values.name ? { name: ctx.values.name } : {}), ...(ctx.values.scope?.length ? { scopes: ctx.values.scope } : {}) },
    });
    print(ctx, created, () => `${created.key}\n\nKey ${created.id} for project ${projectId}, scopes ${created.scopes.join(", ")}. Store it now: it is not shown again.`);
  },

  async list(ctx) {
    const projectId = projectOf(ctx);
    const { keys } = await ctx.client.request<{ keys: ApiKeyView[] }>("GET", `/admin/projects/${enc(projectId)}/keys`, ctx.operator);
    print(ctx, keys, () =>
      keys.length === 0
        ? "No keys. Create one: inkwell keys create --project " + projectId
        : table(
            ["ID", "NAME", "PREFIX", "SCOPES", "CREATED", "LAST USED", "REVOKED"],
            keys.map((k) => [k.id, k.name, `${k.prefix}…`, k.scopes.join(","), k.createdAt, k.lastUsedAt, k.revokedAt]),
          ),
    );
  },

  async revoke(ctx) {
    const projectId = projectOf(ctx);
    const keyId = need(ctx.args[0], "key id");
    const key = await ctx.client.request<ApiKeyView>("DELETE", `/admin/projects/${enc(projectId)}/keys/${enc(keyId)}`, ctx.operator);
    print(ctx, key, () => `Revoked key ${key.id} (${key.prefix}…) at ${key.revokedAt}`);
  },

  /** Hosted assistants' access through OAuth, listed beside the keys (docs/mcp-oauth.md). */
  async grants(ctx) {
    const projectId = projectOf(ctx);
    const { grants } = await ctx.client.request<{ grants: GrantView[] }>("GET", `/admin/projects/${enc(projectId)}/grants`, ctx.operator);
    print(ctx, grants, () =>
      grants.length === 0
        ? "No assistant has access: hosted assistants ask for it when someone adds this server's MCP URL to them."
        : table(
            ["ID", "CLIENT", "SENDS BACK TO", "VERIFIED", "SCOPES", "APPROVED BY", "CREATED", "LAST USED", "REVOKED"],
            grants.map((g) => [g.id, g.clientName ?? g.clientId, g.redirectHost, g.clientKind === "metadata_document" ? "yes" : "no", g.scopes.join(","), g.grantedBy, g.createdAt, g.lastUsedAt, g.revokedAt]),
          ),
    );
  },

  async "revoke-grant"(ctx) {
    const projectId = projectOf(ctx);
    const grantId = need(ctx.args[0], "grant id");
    const grant = await ctx.client.request<GrantView>("DELETE", `/admin/projects/${enc(projectId)}/grants/${enc(grantId)}`, ctx.operator);
    print(ctx, grant, () => `Revoked ${grant.clientName ?? grant.clientId}'s access (grant ${grant.id}) at ${grant.revokedAt}: its tokens are refused from their next request`);
  },
};
