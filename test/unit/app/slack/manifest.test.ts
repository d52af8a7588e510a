import { describe, expect, it } from "vitest";
import { SLACK_BOT_EVENTS, SLACK_BOT_SCOPES, slackManifest } from "../../../../src/app/slack/manifest.js";

describe("slackManifest", () => {
  it("for the Events API, names PUBLIC_URL's one path for events, interactivity and /inkwell", () => {
    const manifest = slackManifest("http", "https://inkwell.example.com") as any;
    expect(manifest.settings).toEqual({
      event_subscriptions: { bot_events: [...SLACK_BOT_EVENTS], request_url: "https://inkwell.example.com/api/slack/events" },
      interactivity: { is_enabled: true, request_url: "https://inkwell.example.com/api/slack/events" },
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    });
    expect(manifest.features.slash_commands).toEqual([expect.objectContaining({ command: "/inkwell", url: "https://inkwell.example.com/api/slack/events" })]);
    expect(manifest.features.shortcuts).toEqual([expect.objectContaining({ type: "message", callback_id: "inkwell_send", name: "Send to Inkwell" })]);
    expect(manifest.oauth_config.scopes.bot).toEqual([...SLACK_BOT_SCOPES]);
  });

  it("for Socket Mode, turns it on and names no URL", () => {
    const manifest = slackManifest("socket", "https://inkwell.example.com");
    expect(JSON.stringify(manifest)).not.toContain("https://inkwell.example.com");
    expect((manifest as any).settings.socket_mode_enabled).toBe(true);
  });
});
