import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium (installed by .ci/run); tests never download a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const hasChromium = () => existsSync(CHROMIUM_PATH);

export function launchChromium(): Promise<Browser> {
  if (!hasChromium()) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: run .ci/run, or apt-get install chromium, or set CHROMIUM_PATH`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}
