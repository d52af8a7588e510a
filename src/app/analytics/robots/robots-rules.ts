import parserModule from "robots-parser";

// robots-parser is CommonJS (`module.exports = function`), while its types declare an ES default export.
type Parse = typeof parserModule.default;
const robotsParser = parserModule as unknown as Parse;

/**
 * One robots.txt version read the way RFC 9309 asks, through robots-parser: the group of the
 * agent's product token (case-insensitive; several groups naming it are one), else `*`; within it
 * the longest matching path (`*` and `$` as wildcards), `Allow` over `Disallow` on a tie; no
 * matching group or rule: allowed. `/robots.txt` itself is always allowed (RFC 9309, 2.2.2).
 */

/** Views are judged by path only: the parser wants a URL of the same origin as its file. */
const ORIGIN = "http://robots.invalid";
export const ROBOTS_PATH = "/robots.txt";

export type Verdict = "allowed" | "disallowed";

export interface Judgement {
  verdict: Verdict;
  /** The matching directive as written in the file (without its comment), when one matched. */
  rule: string | null;
  /** Its line number (1-based), when one matched. */
  line: number | null;
}

/** A Content Signals line (contentsignals.org): which uses the site allows, for the groups it stands in. */
export interface ContentSignals {
  userAgents: string[];
  line: number;
  search?: boolean;
  aiInput?: boolean;
  aiTrain?: boolean;
}

const SIGNAL_NAMES = { search: "search", "ai-input": "aiInput", "ai-train": "aiTrain" } as const;

export class RobotsRules {
  readonly #parsed: ReturnType<Parse>;
  readonly #lines: string[];

  constructor(body: string) {
    this.#parsed = robotsParser(`${ORIGIN}${ROBOTS_PATH}`, body);
    this.#lines = body.split(/\r\n|\r|\n/);
  }

  /** The verdict for `productToken` fetching `path` (a page path, maybe with a query). */
  judge(path: string, productToken: string): Judgement {
    if (path === ROBOTS_PATH) return { verdict: "allowed", rule: null, line: null };
    const url = `${ORIGIN}${path.startsWith("/") ? path : `/${path}`}`;
    const allowed = this.#parsed.isAllowed(url, productToken) ?? true;
    const line = this.#parsed.getMatchingLineNumber(url, productToken);
    if (line < 1) return { verdict: allowed ? "allowed" : "disallowed", rule: null, line: null };
    return { verdict: allowed ? "allowed" : "disallowed", rule: (this.#lines[line - 1] ?? "").replace(/#.*$/, "").trim(), line };
  }

  /** Every Content-Signal line and the user agents of the group it is in. */
  contentSignals(): ContentSignals[] {
    const found: ContentSignals[] = [];
    let agents: string[] = [];
    let inAgentLines = false;
    this.#lines.forEach((raw, index) => {
      const text = raw.replace(/#.*$/, "").trim();
      const colon = text.indexOf(":");
      if (colon < 0) return;
      const field = text.slice(0, colon).trim().toLowerCase();
      const value = text.slice(colon + 1).trim();
      if (field === "user-agent") {
        if (!inAgentLines) agents = [];
        agents.push(value);
        inAgentLines = true;
        return;
      }
      inAgentLines = false;
      if (field !== "content-signal") return;
      const signals: ContentSignals = { userAgents: agents.length > 0 ? [...agents] : ["*"], line: index + 1 };
      for (const pair of value.split(",")) {
        const [name, setting] = pair.split("=").map((part) => part.trim().toLowerCase());
        const key = SIGNAL_NAMES[name as keyof typeof SIGNAL_NAMES];
        if (key && (setting === "yes" || setting === "no")) signals[key] = setting === "yes";
      }
      found.push(signals);
    });
    return found;
  }
}
