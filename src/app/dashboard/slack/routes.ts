import { slackChannelRequestSchema, slackSettingsRequestSchema } from "../../../shared/slack-schemas.js";
import { deleteSlackChannel, projectSlackChannels, putSlackChannel } from "../../domain/slack/slack-channels.js";
import { deleteSlackSettings, slackSettings } from "../../domain/slack/slack-settings.js";
import { HttpError } from "../../http-kit/http-error.js";
import type { Router } from "../../http-kit/router.js";
import { slackManifest } from "../../slack/manifest.js";
import { saveSlackApp } from "../../slack/save-settings.js";
import { slackChannelIdOf, slackSettingsView } from "../../slack/settings-view.js";
import type { DashboardController, SignedInRequest } from "../controller.js";
import { layout, projectPath } from "../layout.js";
import { htmlReply, parseFields, redirect } from "../request.js";
import { SLACK_PAGE, slackAppBody, slackChannelsBody } from "./page.js";

const requireOperator = (r: SignedInRequest) => {
  if (r.session.user.kind !== "operator") throw new HttpError(403, "Only the operator sets up the Slack app; sign in with the operator token.");
};

/**
 * Slack on the dashboard (docs/slack.md): the operator's page with the app manifest and its tokens
 * (Socket Mode follows a saved change within seconds), and each project's channels (admin
 * permission, like its webhooks).
 */
export function registerSlackPages(router: Router, dashboard: DashboardController): void {
  const { db, config, log } = dashboard.services;
  const publicUrl = config.publicUrl ?? null;

  const appPage = async (r: SignedInRequest, status: number) => {
    requireOperator(r);
    const body = slackAppBody({
      session: r.session,
      settings: slackSettingsView(await slackSettings(db), publicUrl),
      manifests: { http: JSON.stringify(slackManifest("http", publicUrl), null, 2), socket: JSON.stringify(slackManifest("socket", publicUrl), null, 2) },
    });
    return htmlReply(status, layout({ title: "Slack", session: r.session, body }));
  };
  router.on("GET", SLACK_PAGE, dashboard.page((r) => appPage(r, 200)));
  router.on(
    "POST",
    SLACK_PAGE,
    dashboard.action(async (r, form) => {
      requireOperator(r);
      const request = parseFields(slackSettingsRequestSchema, { mode: form.mode, botToken: form.botToken ?? "", signingSecret: form.signingSecret ?? "", ...(form.appToken ? { appToken: form.appToken } : {}) });
      await saveSlackApp(db, config.slackApiUrl, log, request);
      return redirect(SLACK_PAGE);
    }),
  );
  router.on(
    "POST",
    `${SLACK_PAGE}/delete`,
    dashboard.action(async (r) => {
      requireOperator(r);
      await db.transaction((tx) => deleteSlackSettings(tx));
      return redirect(SLACK_PAGE);
    }),
  );

  const channelsPage = async (r: SignedInRequest, status: number) => {
    const { project, access } = await dashboard.project(r, "admin");
    const body = slackChannelsBody({ session: r.session, project, channels: await projectSlackChannels(db, project.id), slackConfigured: (await slackSettings(db)) !== null });
    return htmlReply(status, layout({ title: "Slack channels", session: r.session, project: { project, access, tab: "keys" }, body }));
  };
  router.on("GET", "/dashboard/projects/:projectId/slack", dashboard.page((r) => channelsPage(r, 200)));
  router.on(
    "POST",
    "/dashboard/projects/:projectId/slack",
    dashboard.action(async (r, form) => {
      const { project } = await dashboard.project(r, "admin");
      const channelId = slackChannelIdOf((form.channelId ?? "").trim());
      const userGroups = (form.userGroups ?? "").split(",").map((group) => group.trim()).filter(Boolean);
      const request = parseFields(slackChannelRequestSchema, { userGroups, anyReply: form.anyReply === "on" });
      await db.transaction((tx) => putSlackChannel(tx, project.id, { channelId, ...request }));
      return redirect(projectPath(project.id, "slack"));
    }),
  );
  router.on(
    "POST",
    "/dashboard/projects/:projectId/slack/:channelId/delete",
    dashboard.action(async (r) => {
      const { project } = await dashboard.project(r, "admin");
      await db.transaction((tx) => deleteSlackChannel(tx, project.id, slackChannelIdOf(r.ctx.params.channelId)));
      return redirect(projectPath(project.id, "slack"));
    }),
  );
}
