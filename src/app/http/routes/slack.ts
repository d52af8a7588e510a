import { slackChannelRequestSchema, slackManifestQuerySchema, slackSettingsRequestSchema } from "../../../shared/slack-schemas.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { notFound } from "../../domain/errors.js";
import { getProject } from "../../domain/projects.js";
import { deleteSlackChannel, projectSlackChannels, putSlackChannel } from "../../domain/slack/slack-channels.js";
import { deleteSlackSettings, slackSettings } from "../../domain/slack/slack-settings.js";
import { queryObject, readJson, validate } from "../../http-kit/body.js";
import type { Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";
import { slackManifest } from "../../slack/manifest.js";
import { receiveSlackRequest, SLACK_EVENTS_PATH } from "../../slack/receiver.js";
import { saveSlackApp } from "../../slack/save-settings.js";
import { slackSettingsView, slackChannelIdOf } from "../../slack/settings-view.js";
import { requireAdmin } from "../auth.js";

/**
 * Slack (docs/slack.md): the Events API, interactivity and the slash command at one signed path,
 * and the operator's settings, manifest and each project's channels. `onSettingsChanged` reconnects
 * Socket Mode as the new settings say.
 */
export function registerSlackRoutes(router: Router, services: Services, onSettingsChanged: () => Promise<void>): void {
  const { db, config, adminToken, tasks, log, clock } = services;

  router.on("POST", SLACK_EVENTS_PATH, async (ctx) => {
    const { reply, queued } = await receiveSlackRequest(db, ctx.req, clock());
    if (queued) tasks.kick();
    return reply;
  });

  router.on("GET", "/admin/slack", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    return { status: 200, body: slackSettingsView(await slackSettings(db), config.publicUrl ?? null) };
  });

  router.on("PUT", "/admin/slack", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    const request = validate(slackSettingsRequestSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    await saveSlackApp(db, config.slackApiUrl, log, request);
    await onSettingsChanged();
    return { status: 200, body: slackSettingsView(await slackSettings(db), config.publicUrl ?? null) };
  });

  router.on("DELETE", "/admin/slack", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    if (!(await db.transaction((tx) => deleteSlackSettings(tx)))) throw notFound("Slack app");
    await onSettingsChanged();
    return { status: 204 };
  });

  router.on("GET", "/admin/slack/manifest", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    const { mode } = validate(slackManifestQuerySchema, queryObject(ctx.url), "query");
    return { status: 200, body: slackManifest(mode, config.publicUrl ?? null) };
  });

  router.on("GET", "/admin/projects/:id/slack/channels", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    const project = await getProject(db, wellFormedIdOf(ctx.params.id, "Project"));
    return { status: 200, body: { channels: await projectSlackChannels(db, project.id) } };
  });

  router.on("PUT", "/admin/projects/:id/slack/channels/:channelId", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    const projectId = wellFormedIdOf(ctx.params.id, "Project");
    const request = validate(slackChannelRequestSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    const channelId = slackChannelIdOf(ctx.params.channelId);
    return { status: 200, body: await db.transaction((tx) => putSlackChannel(tx, projectId, { channelId, ...request })) };
  });

  router.on("DELETE", "/admin/projects/:id/slack/channels/:channelId", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    const projectId = wellFormedIdOf(ctx.params.id, "Project");
    const channelId = slackChannelIdOf(ctx.params.channelId);
    if (!(await db.transaction((tx) => deleteSlackChannel(tx, projectId, channelId)))) throw notFound("Slack channel");
    return { status: 204 };
  });
}
