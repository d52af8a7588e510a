import { GITLAB_WEBHOOK_PATH, receiveGitLabDelivery } from "../../forges/gitlab/webhook-endpoint.js";
import type { Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";

/** GitLab's project webhooks (docs/gitlab.md): one path per connected project, authenticated by the hook's own tokens. */
export function registerGitLabWebhookRoutes(router: Router, services: Services): void {
  router.on("POST", `${GITLAB_WEBHOOK_PATH}/:projectId`, async (ctx) => {
    const { reply, queued } = await receiveGitLabDelivery(services.db, ctx.req, ctx.params.projectId);
    if (queued) services.tasks.kick();
    return reply;
  });
}
