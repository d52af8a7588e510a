import { describe, expect, it } from "vitest";
import { isBrowserDespiteBotPattern } from "../../../../../src/app/analytics/classify/browser-evidence.js";
import { classifyHit } from "../../../../../src/app/analytics/classify/classify.js";

// Shapes seen in public device fixtures (matomo-org/device-detector, omrilotan/isbot); isbot flags each browser here.
const BROWSERS = [
  "Mozilla/5.0 (Linux; Android 8.1.0; XBot Junior) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.101 Mobile Safari/537.36",
  "Mozilla/5.0 (Linux; Android 4.4.2; GM Discovery II) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0.4044.138 Mobile Safari/537.36",
  "Opera/9.80 NETTV/4.5.0 Mozilla/5.0 (Linux armv7i; CE-HTML/1.0; U; en) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.75 Safari/537.36",
  "Opera/9.80 (Linux mips; HbbTV/1.2.1 (; Freesat/1.0; hdr1000s; 1.0.0; 1.0.0; wired); ce-html/1.0) Presto/2.12.407 Version/12.50",
  "SonyEricssonU10/R1x Browser/NetFront/3.5 Profile/MIDP-2.1 Configuration/CLDC-1.1 JavaPlatform/JP-8.5",
  "dv(iPh10,2);pr(UCBrowser/13.9.8.1767);ov(15_4_1);ss(375x667);bt(UC);pm(0);bv(0);nm(0);im(0);nt(2);",
];

// Tools that look like browsers but name themselves: they stay bots.
const BOTS = [
  "Mozilla/5.0 (Linux; Android 8.0; Pixel 2 Build/OPD3.170816.012; DuplexWeb-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/74.0.3729.131 Mobile Safari/537.36",
  "Mozilla/5.0 (Linux; U; Android 4.0.2; en-us; Catchpoint) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
  "Nokia5800d-1/5.0 (SymbianOS/9.4; Series60/5.3 Nokia5800d-1/111.050.1511; Mozilla/5.0; Profile/MIDP-2.1 Configuration/CLDC-1.1; googleweblight) AppleWebKit/533.4 (KHTML, like Gecko, googleweblight)",
  "Mozilla/5.0 (X11; Linux x86_64; Splunk Synthetics) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/127.0.6533.88 Safari/537.36",
  "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Opera/9.80 (Linux mips; HbbTV/1.2.1) Presto/2.12.407 Version/12.50 (compatible; TVCrawler/1.0; +https://crawler.example)",
];

describe("browsers that isbot's patterns flag", () => {
  it.each(BROWSERS)("counts %s as a person", (userAgent) => {
    expect(isBrowserDespiteBotPattern(userAgent)).toBe(true);
    expect(classifyHit({ userAgent, format: "html" }).class).toBe("human");
  });

  it.each(BOTS)("keeps %s a bot", (userAgent) => {
    expect(isBrowserDespiteBotPattern(userAgent)).toBe(false);
    expect(classifyHit({ userAgent, format: "html" }).class).not.toBe("human");
  });
});
