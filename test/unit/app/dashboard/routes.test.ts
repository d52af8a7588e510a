import pino from "pino";
import { describe, expect, it } from "vitest";
import { registerDashboardRoutes } from "../../../../src/app/dashboard/routes.js";
import { Router } from "../../../../src/app/http-kit/router.js";
import type { Services } from "../../../../src/app/services.js";

// Registration touches no database or GitHub: only the config the sections read up front.
const services = {
  config: { dashboard: { oauth: { clientId: "Iv1.test", clientSecret: "secret" }, minPermission: "write", sessionHours: 12 }, githubServerUrl: "https://github.com", githubApiUrl: "https://api.github.com", rateLimitPerHour: 60 },
  db: {},
  github: null,
  adminToken: "operator-token-for-tests",
  log: pino({ level: "silent" }),
} as unknown as Services;

describe("registerDashboardRoutes", () => {
  it("registers every dashboard page and form, each section's routes in order", () => {
    const router = new Router();
    registerDashboardRoutes(router, services);
    expect(router.list().map(({ method, pattern }) => `${method} ${pattern}`)).toEqual([
      "GET /dashboard/assets/:name",
      "GET /dashboard/sign-in",
      "POST /dashboard/sign-in",
      "GET /dashboard/auth/github",
      "GET /dashboard/auth/github/callback",
      "POST /dashboard/sign-out",
      "GET /dashboard",
      "GET /dashboard/projects/:projectId",
      "GET /dashboard/projects/:projectId/keys",
      "POST /dashboard/projects/:projectId/keys",
      "GET /dashboard/projects/:projectId/keys/:keyId/revoke",
      "POST /dashboard/projects/:projectId/keys/:keyId/revoke",
      "GET /dashboard/oauth/authorize",
      "POST /dashboard/oauth/authorize",
      "POST /dashboard/projects/:projectId/grants/:grantId/revoke",
      "GET /dashboard/projects/:projectId/webhooks",
      "POST /dashboard/projects/:projectId/webhooks",
      "POST /dashboard/projects/:projectId/webhooks/:webhookId/delete",
      "POST /dashboard/projects/:projectId/webhooks/:webhookId/deliveries/:deliveryId/redeliver",
      "GET /dashboard/projects/:projectId/analytics",
      "GET /dashboard/projects/:projectId/analytics.csv",
      "GET /dashboard/projects/:projectId/analytics/referrers.csv",
      "GET /dashboard/projects/:projectId/analytics/daily.csv",
      "GET /dashboard/projects/:projectId/analytics/ai-kinds.csv",
      "GET /dashboard/projects/:projectId/agents",
      "GET /dashboard/projects/:projectId/agents.csv",
      "GET /dashboard/projects/:projectId/agents/formats.csv",
      "GET /dashboard/projects/:projectId/agents/operators.csv",
      "GET /dashboard/projects/:projectId/agents/failures.csv",
      "GET /dashboard/projects/:projectId/agents/:agent",
      "GET /dashboard/projects/:projectId/agents/:agent/pages.csv",
      "GET /dashboard/projects/:projectId/agents/:agent/robots-disallowed.csv",
      "GET /dashboard/projects/:projectId/agents/:agent/daily.csv",
      "GET /dashboard/projects/:projectId/jobs",
      "POST /dashboard/projects/:projectId/jobs",
      "GET /dashboard/projects/:projectId/jobs/:jobId",
      "GET /dashboard/projects/:projectId/jobs-impact",
      "GET /dashboard/projects/:projectId/jobs-impact.csv",
      "GET /dashboard/projects/:projectId/jobs/:jobId/impact.csv",
      "GET /dashboard/projects/:projectId/jobs/:jobId/runs/:attempt",
      "GET /dashboard/projects/:projectId/jobs/:jobId/live",
      "POST /dashboard/projects/:projectId/jobs/:jobId/messages",
      "POST /dashboard/projects/:projectId/jobs/:jobId/approve",
      "POST /dashboard/projects/:projectId/jobs/:jobId/cancel",
      "GET /dashboard/projects/:projectId/automations",
      "POST /dashboard/projects/:projectId/automations",
      "POST /dashboard/projects/:projectId/automations/:automationId/pause",
      "POST /dashboard/projects/:projectId/automations/:automationId/resume",
      "GET /dashboard/projects/:projectId/setup",
      "GET /dashboard/github-app",
      "GET /dashboard/github-app/registered",
      "GET /dashboard/gitlab",
      "POST /dashboard/gitlab",
      "GET /dashboard/slack",
      "POST /dashboard/slack",
      "POST /dashboard/slack/delete",
      "GET /dashboard/projects/:projectId/slack",
      "POST /dashboard/projects/:projectId/slack",
      "POST /dashboard/projects/:projectId/slack/:channelId/delete",
    ]);
  });
});
