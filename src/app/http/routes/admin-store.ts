import { SNAPSHOT_MEDIA_TYPE, SNAPSHOT_PATH } from "../../store/snapshot.js";
import { requireAdmin } from "../auth.js";
import { HttpError } from "../../http-kit/http-error.js";
import type { Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";

/**
 * The store's own backup: a consistent snapshot of the embedded store while the service runs
 * (`inkwell store backup`). Taken between transactions, so every request answered before it
 * started is in it; requests wait while it is taken.
 */
export function registerAdminStoreRoutes(router: Router, services: Services): void {
  const { db, adminToken, log } = services;

  router.on("GET", SNAPSHOT_PATH, async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    if (!db.snapshot) {
      throw new HttpError(
        409,
        "This server stores its data in PostgreSQL (DATABASE_URL), which has no Inkwell snapshot: back it up with PostgreSQL's own tools, e.g. pg_dump --format=custom --file=inkwell.dump \"$DATABASE_URL\"",
      );
    }
    const started = performance.now();
    const snapshot = await db.snapshot();
    log.info({ bytes: snapshot.length, ms: Math.round(performance.now() - started) }, "store snapshot taken");
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    return {
      status: 200,
      raw: { contentType: SNAPSHOT_MEDIA_TYPE, content: snapshot },
      headers: { "Content-Disposition": `attachment; filename="inkwell-${stamp}.tar.gz"` },
    };
  });
}
