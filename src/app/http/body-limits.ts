import { MAX_SLACK_REQUEST_BYTES } from "../slack/receiver.js";

/**
 * The routes whose bodies may be larger (or must be smaller) than `INKWELL_MAX_BODY_BYTES`, the
 * limit of every other JSON request. docs/api.md ("Body sizes") lists the same numbers; a unit test
 * holds the two together, and the OpenAPI document states each route's limit.
 */
export const BODY_LIMITS = {
  /** A page view from the browser: a few fields. */
  beacon: 4 * 1024,
  /** A batch of up to 1,000 hits. */
  hits: 4 * 1024 * 1024,
  /** A run's transcript: 1,000 entries of up to 2,000 characters, as JSON, with room to spare. */
  transcript: 8 * 1024 * 1024,
  /** A robots.txt version: up to 500 KiB of text, as a JSON string even where every byte is escaped. */
  robotsVersion: 4 * 1024 * 1024,
  /** One of Slack's deliveries (an event, an interaction, the slash command). */
  slack: MAX_SLACK_REQUEST_BYTES,
} as const;
