import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../package-root.js";
import { HttpError } from "../http-kit/http-error.js";
import type { Reply } from "../http-kit/router.js";

const ASSET_DIR = path.join(PACKAGE_ROOT, "lib", "dashboard-assets");

const TYPES: Record<string, string> = {
  "app.js": "text/javascript; charset=utf-8",
  "dashboard.css": "text/css; charset=utf-8",
  "favicon.svg": "image/svg+xml",
};

interface Asset {
  content: string;
  etag: string;
}

/** The dashboard's script and style sheet, built by scripts/build.mjs (npm start and npm test build them). */
export class DashboardAssets {
  readonly #cache = new Map<string, Asset>();

  reply(name: string, ifNoneMatch: string | undefined): Reply {
    const type = TYPES[name];
    if (!type) throw new HttpError(404, "No such dashboard asset");
    const asset = this.#load(name);
    const headers = { ETag: asset.etag, "Cache-Control": "no-cache" };
    if (ifNoneMatch === asset.etag) return { status: 304, raw: { contentType: type, content: "" }, headers };
    return { status: 200, raw: { contentType: type, content: asset.content }, headers };
  }

  #load(name: string): Asset {
    const cached = this.#cache.get(name);
    if (cached) return cached;
    let content: string;
    try {
      content = readFileSync(path.join(ASSET_DIR, name), "utf8");
    } catch {
      throw new HttpError(500, `The dashboard's ${name} is not built: run 'npm run build' (npm start does it when sources change)`);
    }
    const asset = { content, etag: `"${createHash("sha256").update(content).digest("base64url").slice(0, 22)}"` };
    this.#cache.set(name, asset);
    return asset;
  }
}
