import { robotsSourceInputSchema, robotsVersionInputSchema } from "../../../shared/robots-schemas.js";
import { ROBOTS_FETCHES } from "../../analytics/robots/robots-fetch.js";
import { removeRobotsSource, robotsSourceReport, setRobotsSource } from "../../analytics/robots/robots-sources.js";
import { addRobotsVersion } from "../../analytics/robots/robots-versions.js";
import { InvalidInputError } from "../../domain/errors.js";
import { getProject } from "../../domain/projects.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { checkDestination } from "../../outbound-guard.js";
import { readJson, validate } from "../../http-kit/body.js";
import type { RequestContext, Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";
import { requireAdmin } from "../auth.js";
import { BODY_LIMITS } from "../body-limits.js";

/** The operator API for a project's robots.txt history: versions sent by hand, and where it is fetched from. */
export function registerAdminRobotsRoutes(router: Router, services: Services): void {
  const { db, config, adminToken, clock } = services;
  const projectOf = async (ctx: RequestContext) => {
    requireAdmin(ctx.req, adminToken);
    const projectId = wellFormedIdOf(ctx.params.id, "Project");
    await getProject(db, projectId);
    return projectId;
  };

  router.on("POST", "/admin/projects/:id/robots/versions", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    const input = validate(robotsVersionInputSchema, await readJson(ctx.req, Math.max(config.maxBodyBytes, BODY_LIMITS.robotsVersion), { storableAt: ["body"] }), "body");
    const projectId = await projectOf(ctx);
    const now = new Date(clock());
    const effectiveAt = input.effectiveAt === undefined ? now : new Date(input.effectiveAt);
    const { version, created } = await db.transaction((tx) => addRobotsVersion(tx, projectId, { body: input.body, source: "api", effectiveAt, backdated: input.effectiveAt !== undefined, now }));
    return { status: created ? 201 : 200, body: version };
  });

  router.on("GET", "/admin/projects/:id/robots/source", async (ctx) => {
    const projectId = await projectOf(ctx);
    return { status: 200, body: await robotsSourceReport(db, projectId) };
  });

  router.on("PUT", "/admin/projects/:id/robots/source", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    const input = validate(robotsSourceInputSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    const projectId = await projectOf(ctx);
    const refused = await checkDestination(input.url, config.webhooksAllowPrivate, ROBOTS_FETCHES);
    if (refused) throw new InvalidInputError(refused, [{ field: "url", message: refused }]);
    await setRobotsSource(db, projectId, input, new Date(clock()));
    return { status: 200, body: await robotsSourceReport(db, projectId) };
  });

  router.on("DELETE", "/admin/projects/:id/robots/source", async (ctx) => {
    const projectId = await projectOf(ctx);
    await removeRobotsSource(db, projectId);
    return { status: 204 };
  });
}
