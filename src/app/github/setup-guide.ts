import type { Config } from "../config.js";
import { appSetupUrl } from "./app-urls.js";
import { checkPublicUrl, tunnelRecipe } from "./public-url-check.js";

/** What `GET /`, the start-up log and the project setup page tell the operator about the GitHub App. */
export function setupGuide(config: Config) {
  const setupUrl = appSetupUrl(config);
  if (config.app) return { status: { configured: true, appId: config.app.appId, webhookPath: "/api/github/webhooks", setupUrl }, steps: null };
  const reach = checkPublicUrl(config.publicUrl);
  const steps = [
    reach.reachable
      ? `PUBLIC_URL is ${config.publicUrl}: GitHub's webhooks and runners use it.`
      : `Give this server an address GitHub can reach (${reach.reason}): for a trial, \`${tunnelRecipe(config.port)[0]?.split("   #")[0]}\`, then restart with PUBLIC_URL set to the address it prints.`,
    `Open ${setupUrl} (sign in with the operator token), name the App and register it on GitHub: Inkwell saves its credentials under DATA_DIR. Then restart Inkwell.`,
    "Install the App on your docs repository and add the Inkwell workflow from the project's Setup tab (docs/github-app.md, 'Install on your docs repo').",
  ];
  return { status: { configured: false, webhookPath: null, setupUrl }, steps };
}
