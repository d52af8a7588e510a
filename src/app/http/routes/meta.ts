import type { Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";
import { buildOpenApiDocument } from "../openapi.js";
import { setupGuide } from "../../forges/github/setup-guide.js";

export function registerMetaRoutes(router: Router, services: Services, version: string): void {
  const { db, config } = services;
  let openapi: string | null = null;

  router.on("GET", "/healthz", async () => {
    try {
      await db.query("SELECT 1");
      return { status: 200, body: { status: "ok", store: db.kind } };
    } catch {
      return { status: 503, body: { status: "unavailable", store: db.kind, error: "The store does not answer" } };
    }
  });

  router.on("GET", "/openapi.json", async () => {
    openapi ??= JSON.stringify(buildOpenApiDocument(version, config.publicUrl));
    return { status: 200, raw: { contentType: "application/json; charset=utf-8", content: openapi } };
  });

  router.on("GET", "/", async (ctx) => {
    // A person with a browser wants the dashboard; API clients get what this server is.
    if ((ctx.req.headers.accept ?? "").includes("text/html")) return { status: 302, raw: { contentType: "text/plain; charset=utf-8", content: "" }, headers: { Location: "/dashboard" } };
    const guide = setupGuide(config);
    // What the server lacks to run jobs on each forge, by the name jobs carry (`forge`): a client warns for the job's own.
    const forges = Object.fromEntries(Object.values(services.forges).map((forge) => [forge.name, { missing: forge.missing ? { what: forge.missing.what, setupUrl: forge.missing.setupUrl } : null }]));
    return { status: 200, body: { name: "inkwell", version, store: db.kind, openapi: "/openapi.json", dashboard: "/dashboard", githubApp: guide.status, forges, ...(guide.steps ? { setup: guide.steps } : {}) } };
  });
}
