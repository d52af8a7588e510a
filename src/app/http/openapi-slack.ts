import { slackChannelRequestSchema, slackChannelSchema, slackManifestQuerySchema, slackSettingsRequestSchema, slackSettingsSchema } from "../../shared/slack-schemas.js";
import { BODY_LIMITS } from "./body-limits.js";
import { ERR, errorResponse, json, jsonList, operator, pathParam, queryParameters } from "./openapi-parts.js";

const channelParam = { name: "channelId", in: "path", required: true, description: "The Slack channel's id (C…, G… or D…).", schema: { type: "string", pattern: "^[CGD][A-Z0-9]{2,30}$" } };

/** Slack's operations of the OpenAPI document (docs/slack.md): the signed path Slack delivers to, the app's settings, a project's channels. */
export const slackPaths = () => ({
  "/api/slack/events": {
    post: {
      operationId: "receiveSlackRequest",
      summary: "Slack's Events API, interactivity (buttons, the message shortcut) and the /inkwell command",
      description:
        "Authenticated by Slack's request signature (X-Slack-Signature, v0, with the app's signing secret) over X-Slack-Request-Timestamp, which must be within five minutes of now. Answered at once; what it means is done by the task queue. Bodies over 1 MiB are refused.",
      security: [],
      requestBody: {
        required: true,
        description: `At most ${BODY_LIMITS.slack / (1024 * 1024)} MiB.`,
        "x-max-body-bytes": BODY_LIMITS.slack,
        content: {
          "application/json": { schema: { type: "object", description: "An Events API request (event_callback or url_verification)." } },
          "application/x-www-form-urlencoded": { schema: { type: "object", description: "An interactive payload (`payload`) or a slash command's fields." } },
        },
      },
      responses: {
        200: { description: "Taken (or a retry of one taken before): `{challenge}` for Slack's URL check, a note for the slash command, else `{}`.", content: { "application/json": { schema: { type: "object" } } } },
        400: errorResponse("The body is not what Slack sends."),
        401: errorResponse("The signature does not verify, or the timestamp is more than five minutes from now."),
        404: errorResponse("Slack is not set up on this server."),
        413: ERR[413],
      },
    },
  },
  "/admin/slack": {
    get: {
      operationId: "getSlackSettings",
      summary: "The server's Slack app, without its tokens",
      security: operator,
      responses: { 200: { description: "The Slack app's settings.", ...json(slackSettingsSchema) }, 401: ERR[401] },
    },
    put: {
      operationId: "putSlackSettings",
      summary: "Save the Slack app's bot token and signing secret (and, for Socket Mode, its app-level token); the bot token is checked with Slack",
      security: operator,
      requestBody: { required: true, ...json(slackSettingsRequestSchema) },
      responses: { 200: { description: "Saved.", ...json(slackSettingsSchema) }, 400: errorResponse("Invalid body, or Slack refused the bot token."), 401: ERR[401], 413: ERR[413] },
    },
    delete: {
      operationId: "deleteSlackSettings",
      summary: "Forget the Slack app (Socket Mode disconnects; linked threads stay linked)",
      security: operator,
      responses: { 204: { description: "Deleted." }, 401: ERR[401], 404: errorResponse("No Slack app is set up.") },
    },
  },
  "/admin/slack/manifest": {
    get: {
      operationId: "getSlackManifest",
      summary: "The Slack app manifest to create the app from (scopes, events, interactivity, /inkwell, Socket Mode or not)",
      security: operator,
      parameters: queryParameters(slackManifestQuerySchema),
      responses: { 200: { description: "A Slack app manifest (JSON).", content: { "application/json": { schema: { type: "object" } } } }, 400: ERR[400], 401: ERR[401] },
    },
  },
  "/admin/projects/{id}/slack/channels": {
    get: {
      operationId: "listSlackChannels",
      summary: "The Slack channels mapped to the project",
      security: operator,
      parameters: [pathParam("id", "Project id.")],
      responses: { 200: { description: "Channels.", ...jsonList("channels", slackChannelSchema) }, 401: ERR[401], 404: ERR[404] },
    },
  },
  "/admin/projects/{id}/slack/channels/{channelId}": {
    put: {
      operationId: "putSlackChannel",
      summary: "Map a Slack channel to the project, or change who may ask there",
      security: operator,
      parameters: [pathParam("id", "Project id."), channelParam],
      requestBody: { required: true, ...json(slackChannelRequestSchema) },
      responses: { 200: { description: "The mapping.", ...json(slackChannelSchema) }, 400: ERR[400], 401: ERR[401], 404: ERR[404], 413: ERR[413] },
    },
    delete: {
      operationId: "deleteSlackChannel",
      summary: "Unmap a Slack channel from the project",
      security: operator,
      parameters: [pathParam("id", "Project id."), channelParam],
      responses: { 204: { description: "Unmapped." }, 401: ERR[401], 404: ERR[404] },
    },
  },
});
