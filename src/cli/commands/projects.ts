import type { ProjectView } from "../../shared/admin-schemas.js";
import { SALT_WINDOWS } from "../../shared/analytics-vocabulary.js";
import { enc, intOption, need, print } from "../command-context.js";
import { CliError } from "../errors.js";
import { fields, table } from "../format.js";
import type { NounRuns } from "./command-usage.js";

const projectFields = (p: ProjectView) =>
  fields([
    ["id", p.id],
    ["repository", p.repository],
    ["base ref", p.ref ?? "(default branch)"],
    ["model", p.model],
    ["jobs may also use", p.allowedModels.join(", ") || "(only the model above)"],
    ["rate limit", `${p.rateLimitPerHour}/hour`],
    [
      "analytics",
      `salt window ${p.analytics.saltWindow}; beacon origins: ${p.analytics.allowedOrigins.join(", ") || "none (the beacon is refused until one is added)"}; ` +
        `markdown twins (/x.md) ${p.analytics.markdownAsPage ? "count as their page" : "are pages of their own"}`,
    ],
    [
      "jobs",
      `${p.jobs.planApproval ? "plan first and wait for approval" : "start without a plan to approve"}; waiting archived after ${p.jobs.waitLimitDays} day(s); ` +
        (p.jobs.checkRepairRounds > 0 ? `drafts until the repository's checks pass, ${p.jobs.checkRepairRounds} repair round(s) for failing ones` : "the repository's checks not watched"),
    ],
    p.gitlab
      ? ["gitlab", `${p.gitlab.projectPath} (project ${p.gitlab.projectId}) on ${p.gitlab.url}; webhook ${p.gitlab.webhookId ?? "not registered"}`]
      : ["app installed", p.installation.installed ? `yes (installation ${p.installation.id}${p.installation.suspended ? ", suspended" : ""})` : "no"],
    ["created", p.createdAt],
  ]);

export const projects: NounRuns<"projects"> = {
  async create(ctx) {
    const [repository] = ctx.args;
    const body = {
      repository: need(repository, "repository (owner/repo or URL)"),
      ...(ctx.values.ref ? { ref: ctx.values.ref } : {}),
      ...(ctx.values.name ? { name: ctx.values.name } : {}),
      ...(ctx.values.model ? { model: ctx.values.model } : {}),
      ...(ctx.values["rate-limit"] ? { rateLimitPerHour: intOption(ctx.values["rate-limit"], "rate-limit") } : {}),
    };
    const project = await ctx.client.request<ProjectView>("POST", "/admin/projects", ctx.operator, { body });
    print(ctx, project, () => `Created project ${project.id}\n${projectFields(project)}`);
  },

  async "connect-gitlab"(ctx) {
    const [project] = ctx.args;
    const body = {
      project: need(project, "GitLab project (group/project, its URL or its id)"),
      gitlabUrl: need(ctx.values["gitlab-url"], "--gitlab-url (https://gitlab.com or your instance)"),
      // From the environment by preference: a token on the command line stays in the shell's history.
      token: need(ctx.values["gitlab-token"] ?? ctx.io.env.INKWELL_GITLAB_TOKEN, "--gitlab-token (or INKWELL_GITLAB_TOKEN): a project access token, Maintainer role, api scope"),
      ...(ctx.values.ref ? { ref: ctx.values.ref } : {}),
      ...(ctx.values.name ? { name: ctx.values.name } : {}),
      ...(ctx.values.model ? { model: ctx.values.model } : {}),
      ...(ctx.values["rate-limit"] ? { rateLimitPerHour: intOption(ctx.values["rate-limit"], "rate-limit") } : {}),
    };
    const created = await ctx.client.request<ProjectView>("POST", "/admin/gitlab/projects", ctx.operator, { body });
    for (const warning of created.gitlab?.warnings ?? []) ctx.io.stderr(`Warning: ${warning}`);
    print(ctx, created, () => `Connected GitLab project ${created.gitlab?.projectPath ?? created.repository} as ${created.id}\n${projectFields(created)}`);
  },

  async list(ctx) {
    const { projects } = await ctx.client.request<{ projects: ProjectView[] }>("GET", "/admin/projects", ctx.operator);
    print(ctx, projects, () =>
      projects.length === 0
        ? "No projects yet. Create one: inkwell projects create owner/repo"
        : table(
            ["ID", "REPOSITORY", "REF", "APP", "CREATED"],
            projects.map((p) => [p.id, p.repository, p.ref, p.forge === "gitlab" ? "gitlab" : p.installation.installed ? "installed" : "not installed", p.createdAt]),
          ),
    );
  },

  async get(ctx) {
    const id = need(ctx.args[0] ?? ctx.values.project, "project id");
    const project = await ctx.client.request<ProjectView>("GET", `/admin/projects/${enc(id)}`, ctx.operator);
    print(ctx, project, () => projectFields(project));
  },

  async update(ctx) {
    const id = need(ctx.args[0] ?? ctx.values.project, "project id");
    const saltWindow = ctx.values["salt-window"];
    if (saltWindow && !(SALT_WINDOWS as readonly string[]).includes(saltWindow)) throw new CliError("--salt-window must be day, week or month", 2);
    const origins = ctx.values["no-allowed-origins"] ? [] : ctx.values["allowed-origin"];
    const markdownAsPage = ctx.values["markdown-as-page"];
    if (markdownAsPage !== undefined && markdownAsPage !== "true" && markdownAsPage !== "false") throw new CliError("--markdown-as-page must be true or false", 2);
    const models = ctx.values["no-allowed-models"] ? [] : ctx.values["allowed-model"];
    if (ctx.values["plan-approval"] && ctx.values["no-plan-approval"]) throw new CliError("Pass --plan-approval or --no-plan-approval, not both", 2);
    const planApproval = ctx.values["plan-approval"] ? true : ctx.values["no-plan-approval"] ? false : undefined;
    const waitLimitDays = intOption(ctx.values["wait-limit-days"], "wait-limit-days");
    const checkRepairRounds = intOption(ctx.values["check-repair-rounds"], "check-repair-rounds");
    const jobs = {
      ...(planApproval !== undefined ? { planApproval } : {}),
      ...(waitLimitDays !== undefined ? { waitLimitDays } : {}),
      ...(checkRepairRounds !== undefined ? { checkRepairRounds } : {}),
    };
    if (!saltWindow && !origins && markdownAsPage === undefined && !models && Object.keys(jobs).length === 0) {
      throw new CliError(
        "Nothing to change: pass --allowed-origin ORIGIN (repeatable), --no-allowed-origins, --salt-window, --markdown-as-page, --allowed-model MODEL (repeatable), --no-allowed-models, --plan-approval, --no-plan-approval, --wait-limit-days N or --check-repair-rounds N",
        2,
      );
    }
    const analytics = {
      ...(saltWindow ? { saltWindow } : {}),
      ...(origins ? { allowedOrigins: origins } : {}),
      ...(markdownAsPage !== undefined ? { markdownAsPage: markdownAsPage === "true" } : {}),
    };
    const body = { ...(Object.keys(analytics).length > 0 ? { analytics } : {}), ...(models ? { allowedModels: models } : {}), ...(Object.keys(jobs).length > 0 ? { jobs } : {}) };
    const project = await ctx.client.request<ProjectView>("PATCH", `/admin/projects/${enc(id)}`, ctx.operator, { body });
    print(ctx, project, () => `Updated project ${project.id}\n${projectFields(project)}`);
  },
};
