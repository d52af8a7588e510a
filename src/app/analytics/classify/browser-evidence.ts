import { isbotMatch } from "isbot";

/**
 * Real browsers that isbot's patterns flag, recognised by the shape of their User-Agent: a phone's
 * model name in an Android browser's platform comment ("XBot Junior", "GM Discovery II"), smart-TV
 * browsers (HbbTV, CE-HTML, NETTV, VIDAA…), feature phones (J2ME's MIDP profile, MAUI and Bada
 * WAP browsers) and UC Browser's compact iOS format. Never when the
 * User-Agent carries a crawler's signs (a URL, a "…bot/1.0" token), and monitoring tools that add
 * their name as an item of their own ("…; DuplexWeb-Google/1.0") stay bots. Measured against
 * labelled lists this project does not ship (bench/README.md).
 */
const CRAWLER_SIGNS = /https?:\/\/|\+http|www\.|@|(?:bot|spider|crawler|scraper)\/|spider|crawl|weblight|transcoder|proxy/i;
const ENGINE = /\b(?:AppleWebKit\/\d|Gecko\/\d|Presto\/\d)/;
/** `Linux; Android 8.1.0; XBot Junior Build/O11019)`: one model item, no locale, no product token in it. */
const ANDROID_MODEL = /^Mozilla\/5\.0 \(Linux; Android [\d.]+; ([^;()/]+?)(?: Build\/[^;()]+)?\) AppleWebKit\/\d/;
const TV_PLATFORM = /\b(?:HbbTV\/|CE-HTML\/|NETTV\/|NetCast|SmartTV|SMART-TV|VIDAA\/)/i;
const FEATURE_PHONE = /\bProfile\/MIDP-\d|\bConfiguration\/CLDC-\d|\bMAUI\b[^)]*WAP Browser|WAP Browser\/MAUI|\bBada\/\d/;
const BROWSER_PRODUCT = /^dv\([A-Za-z]+\d+,\d+\);pr\(UCBrowser\/\d/;

export function isBrowserDespiteBotPattern(userAgent: string): boolean {
  if (CRAWLER_SIGNS.test(userAgent)) return false;
  if (BROWSER_PRODUCT.test(userAgent) || FEATURE_PHONE.test(userAgent)) return true;
  if (TV_PLATFORM.test(userAgent) && ENGINE.test(userAgent)) return true;
  const model = ANDROID_MODEL.exec(userAgent)?.[1];
  return model !== undefined && isbotMatch(model) !== null && isbotMatch(userAgent.replace(model, "Phone")) === null;
}

