import type { Config } from "../../config.js";
import { appSetupUrl } from "./app-urls.js";
import { checkPublicUrl, tunnelRecipe } from "./public-url-check.js";

/** What `GET /`, the start-up log and the project setup page tell the operator about the GitHub App. */
export function setupGuide(config: Config) {
  const setupUrl = appSetupUrl(config);
  if (config.app) return { status: { configured: true, appId: config.app.appId, webhookPath: "/api/github/webhooks", setupUrl }, steps: null };
  const reach = checkPublicUrl(config.publicUrl);
  const [tunnel, , restart] = tunnelRecipe(config.port).map((line) => line.split("   #")[0]);
  const steps = [
    reach.reachable
      ? `PUBLIC_URL is ${config.publicUrl}: GitHub's webhooks and runners use it.`
      : `Give this server an address GitHub can reach (${reach.reason}): for a trial, \`${tunnel}\`, then restart with the address it prints: \`${restart}\`.`,
    `Open ${setupUrl} (sign in with the operator token), name the App, press Continue, then Register on GitHub: when GitHub sends you back, Inkwell saves the App's credentials in \`DATA_DIR/github-app.env\`. Then restart Inkwell.`,
    "Install the App on your docs repository and add the Inkwell workflow from the project's Setup tab (docs/github-app.md, 'Install on your docs repo').",
  ];
  return { status: { configured: false, webhookPath: null, setupUrl }, steps };
}
