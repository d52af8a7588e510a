import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { Webhook } from "standardwebhooks";
import { gitLabConnectionOf, type GitLabConnection } from "../../domain/gitlab-connections.js";
import { readBody, refuseDeclaredOversize } from "../../http-kit/body.js";
import { HttpError } from "../../http-kit/http-error.js";
import type { Reply } from "../../http-kit/router.js";
import type { Db } from "../../store/db.js";
import { enqueueTask } from "../../tasks/tasks.js";
import type { ForgeWebhooks } from "../forge.js";
import { gitLabEventOf } from "./webhook-events.js";

/** Where each connected project's webhook delivers: `<PUBLIC_URL>/api/gitlab/webhooks/<project id>`. */
export const GITLAB_WEBHOOK_PATH = "/api/gitlab/webhooks";
/** The address Inkwell registers on GitLab for a project's deliveries (the docs project's hook, and a linked source project's). */
export const gitLabWebhookUrl = (publicUrl: string, projectId: string) => `${publicUrl}${GITLAB_WEBHOOK_PATH}/${projectId}`;
export const GITLAB_EVENT_TASK = "gitlab_event";

/**
 * A delivery's body cap. The events taken (merge requests, notes) carry at most a description or a
 * note of GitLab's 1,000,000-character limit, a few MB as JSON; a bigger body is refused (413)
 * before or while it is read, never held whole.
 */
export const MAX_GITLAB_WEBHOOK_BYTES = 5 * 1024 * 1024;

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Constant time whatever the lengths: both sides are hashed first. */
const sameSecret = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const refused = (why: string) => new HttpError(401, `Invalid GitLab webhook delivery: ${why}`);

/**
 * One GitLab webhook delivery: its X-Gitlab-Token compared in constant time with the project's
 * before a byte of the body is read; the body read up to the cap; its Standard Webhooks signature
 * (`webhook-signature`, GitLab 18.x with a signing token) verified when the instance sends one; then
 * what it means queued as a `gitlab_event` task in one transaction before GitLab gets its 200.
 */
export async function receiveGitLabDelivery(db: Db, req: IncomingMessage, projectIdParam: string | undefined): Promise<{ reply: Reply; queued: boolean }> {
  const token = header(req, "x-gitlab-token");
  // An unknown project is answered as a wrong token: a delivery learns nothing about which projects exist.
  const projectId = projectIdParam && /^[a-z0-9]{1,64}$/.test(projectIdParam) ? projectIdParam : null;
  const connection: GitLabConnection | null = projectId ? await gitLabConnectionOf(db, projectId) : null;
  if (!sameSecret(token ?? "", connection?.webhookToken ?? "\u0000no connection") || !connection || !token) throw refused("X-Gitlab-Token is missing or wrong");
  refuseDeclaredOversize(req, MAX_GITLAB_WEBHOOK_BYTES);
  const body = await readBody(req, MAX_GITLAB_WEBHOOK_BYTES);
  const signature = header(req, "webhook-signature");
  if (signature !== undefined) {
    try {
      new Webhook(connection.signingToken).verify(body, {
        "webhook-id": header(req, "webhook-id") ?? "",
        "webhook-timestamp": header(req, "webhook-timestamp") ?? "",
        "webhook-signature": signature,
      });
    } catch {
      throw refused("webhook-signature does not verify (or its timestamp is more than 5 minutes off)");
    }
  }
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString("utf8"));
  } catch {
    throw new HttpError(400, "The delivery's body is not JSON");
  }
  const event = gitLabEventOf(header(req, "x-gitlab-event") ?? "", payload, connection.projectId, connection.gitlabProjectId);
  if ("ignored" in event) return { reply: { status: 200, body: { ignored: event.ignored } }, queued: false };
  const delivery = header(req, "x-gitlab-event-uuid") ?? header(req, "idempotency-key") ?? createHash("sha256").update(body).digest("hex");
  await db.transaction((tx) => enqueueTask(tx, GITLAB_EVENT_TASK, `gitlab:${connection.projectId}:${delivery}`, event));
  return { reply: { status: 202, body: { queued: event.type } }, queued: true };
}

/** The project webhooks (docs/gitlab.md): one path per connected project, authenticated by the hook's own tokens. */
export function gitLabWebhooks(db: Db): ForgeWebhooks {
  return {
    path: GITLAB_WEBHOOK_PATH,
    async receive(req, _res, pathname, kick) {
      if (req.method !== "POST") throw new HttpError(405, `${GITLAB_WEBHOOK_PATH}/<project> takes GitLab's webhook deliveries (POST)`, undefined, { Allow: "POST" });
      const { reply, queued } = await receiveGitLabDelivery(db, req, pathname.slice(GITLAB_WEBHOOK_PATH.length + 1) || undefined);
      if (queued) kick();
      return reply;
    },
  };
}
