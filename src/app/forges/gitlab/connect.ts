import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { withoutTrailingSlashes } from "../../../shared/trailing-slashes.js";
import { ConflictError, InvalidInputError, NotConfiguredError, UpstreamError } from "../../domain/errors.js";
import { createGitLabProject, gitLabProjectTaken, type GitLabConnection } from "../../domain/gitlab-connections.js";
import { newId } from "../../domain/ids.js";
import type { NewProject, Project } from "../../domain/projects.js";
import type { Db } from "../../store/db.js";
import { GitLabApi, gitLabMessage, gitLabStatus, type GitLabProjectInfo } from "./api.js";
import { gitLabWebhookUrl } from "./webhook-endpoint.js";
import ipaddr from "ipaddr.js";
import { declaredInputs, PIPELINE_INPUTS } from "./pipeline-inputs.js";

export interface ConnectGitLabInput {
  gitlabUrl: string;
  /** path, URL on the instance, or numeric id. */
  project: string;
  token: string;
  settings: Omit<NewProject, "id" | "forge" | "repoName" | "repository" | "repositoryId">;
}

/** The instance's URL as its ID tokens' `iss` spells it: origin and relative path, no trailing slash. */
export const instanceUrl = (input: string) => {
  const url = new URL(input.trim());
  return withoutTrailingSlashes(`${url.origin}${url.pathname}`);
};

/** The project as the API takes it: a numeric id, or the path (a URL on the instance read as one). */
function projectRef(baseUrl: string, project: string): string | number {
  if (/^\d+$/.test(project)) return Number(project);
  const trimmed = withoutTrailingSlashes(project.replace(/(.)\.git$/, "$1"));
  return trimmed.startsWith(`${baseUrl}/`) ? trimmed.slice(baseUrl.length + 1) : trimmed.replace(/^\/+/, "");
}

const refused = (what: string, field: string) => new InvalidInputError(`Invalid request body: ${field}: ${what}`, [{ field, message: `${field}: ${what}` }]);

/**
 * Connects a GitLab project: reads it and the token's user with the token, registers the project
 * webhook (secret token and signing token, both new) at this server's PUBLIC_URL, then creates
 * the project and its connection. A webhook registered for a project that then cannot be created
 * is removed again.
 */
export async function connectGitLabProject(db: Db, input: ConnectGitLabInput, publicUrl: string | undefined, log: Logger): Promise<{ project: Project; connection: GitLabConnection; warnings: string[] }> {
  if (!publicUrl) throw new NotConfiguredError("Set PUBLIC_URL first: GitLab delivers webhooks to it and the runners' ID tokens are issued for it");
  const baseUrl = instanceUrl(input.gitlabUrl);
  const api = new GitLabApi(baseUrl, input.token);
  const ref = projectRef(baseUrl, input.project);
  const info = await api.project(ref).catch((error: unknown) => {
    const status = gitLabStatus(error);
    if (status === 401) throw refused("GitLab refused the token (401): it is wrong, expired or revoked", "token");
    if (status === 404 || status === 403) throw refused(`GitLab has no project ${ref} that this token can see (${status})`, "project");
    throw new UpstreamError(`GitLab did not answer for ${baseUrl}: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (info.archived) throw refused(`${info.pathWithNamespace} is archived on GitLab`, "project");
  const taken = await gitLabProjectTaken(db, baseUrl, info.pathWithNamespace);
  if (taken) throw new ConflictError(`A project for ${info.pathWithNamespace} on ${baseUrl} already exists: ${taken}`);
  const user = await api.tokenUser();
  const id = newId();
  const webhookToken = randomBytes(32).toString("base64url");
  const signingToken = `whsec_${randomBytes(32).toString("base64")}`;
  const webhookId = await api.addWebhook(info.id, gitLabWebhookUrl(publicUrl, id), { token: webhookToken, signingToken }).catch((error: unknown) => {
    const status = gitLabStatus(error);
    const said = gitLabMessage(error);
    if (status === 403 || status === 401) throw refused(`GitLab refused to add the project webhook (${status}${said ? `: ${said}` : ""}): the token needs the Maintainer role and the api scope`, "token");
    if (status === 422 || status === 400) throw refused(`GitLab refused the webhook address ${gitLabWebhookUrl(publicUrl, id)} (${status}${said ? `: ${said}` : ""})${localAddress(publicUrl) ? `: ${LOCAL_NETWORK_HINT}` : ""}`, "gitlabUrl");
    throw new UpstreamError(`GitLab did not add the project webhook: ${said ?? (error instanceof Error ? error.message : String(error))}`);
  });
  const connection = {
    baseUrl,
    gitlabProjectId: info.id,
    projectPath: info.pathWithNamespace,
    defaultBranch: info.defaultBranch,
    accessToken: input.token,
    tokenUsername: user.username,
    webhookToken,
    signingToken,
    webhookId,
  };
  try {
    const project = await db.transaction((tx) => createGitLabProject(tx, { ...input.settings, id, repository: info.webUrl, baseRef: input.settings.baseRef ?? info.defaultBranch ?? undefined }, connection));
    const ciConfig = await api.fileAt(info.id, info.ciConfigPath, project.baseRef ?? info.defaultBranch ?? "main").catch(() => null);
    return { project, connection: { projectId: project.id, ...connection }, warnings: connectWarnings(info, ciConfig, publicUrl, baseUrl) };
  } catch (error) {
    await api.removeWebhook(info.id, webhookId).catch((removal: unknown) => log.warn({ err: removal, webhookId }, "could not remove the GitLab webhook of a project that was not created"));
    throw error;
  }
}

const LOCAL_NETWORK_HINT =
  "a self-managed GitLab refuses webhooks to the local network unless an administrator allows it (Admin > Settings > Network > Outbound requests > Allow requests to the local network from webhooks and integrations); or give Inkwell a public PUBLIC_URL";

/** A PUBLIC_URL on the local network: loopback, private or link-local addresses, and names no public DNS serves. */
function localAddress(publicUrl: string): boolean {
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, "");
  if (/^(localhost|.*\.(localhost|local|internal|lan|home\.arpa))$/i.test(host)) return true;
  if (!ipaddr.isValid(host)) return false;
  const range = ipaddr.process(host).range();
  return range !== "unicast";
}

/**
 * What in the project's settings would stop its first job, each with what to change
 * (docs/gitlab.md, "Connecting"): read at connect time, answered with the project.
 */
export function connectWarnings(info: GitLabProjectInfo, ciConfig: string | null, publicUrl: string, instanceUrl: string): string[] {
  const warnings: string[] = [];
  const declared = declaredInputs(ciConfig);
  const inputs = declared.has(PIPELINE_INPUTS.jobId) && declared.has(PIPELINE_INPUTS.runAttempt);
  if (info.pipelineVariablesRole === "no_one_allowed" && !inputs) {
    warnings.push(
      `${info.pathWithNamespace} lets no one set pipeline variables (GitLab.com's default for new projects), and its ${info.ciConfigPath} does not declare Inkwell's pipeline inputs yet: commit the Setup tab's .gitlab-ci.yml (docs/gitlab.md, "Pipeline inputs") before the first job, or set Settings > CI/CD > Variables > Minimum role to use pipeline variables to Maintainer.`,
    );
  }
  if (info.jobTokenPushAllowed === false) {
    warnings.push(`The job token of ${info.pathWithNamespace} may not push, so a run cannot push its branch: turn on Settings > CI/CD > Job token permissions > Allow Git push requests to the repository.`);
  }
  if (localAddress(publicUrl)) {
    warnings.push(
      new URL(instanceUrl).hostname === "gitlab.com"
        ? `GitLab.com cannot reach ${publicUrl} (a local address): webhooks and the runner's reports need Inkwell at a public address; set PUBLIC_URL to it.`
        : `GitLab must deliver webhooks to ${publicUrl}, a local address: ${LOCAL_NETWORK_HINT}.`,
    );
  }
  return warnings;
}
