/**
 * A second robots.txt matcher, written from RFC 9309's text and nothing else of Inkwell's: the
 * brute-force side of the robots.txt tests. It reads the file line by line into groups (2.1), takes
 * the groups naming the agent's product token or else the `*` groups (2.2.1), percent-encodes the
 * URL and the patterns alike (2.2.2), turns each pattern into a regular expression (2.2.3) and keeps
 * the match with the most octets, Allow on a tie (2.2.2).
 *
 * Where the RFC is silent it makes Inkwell's documented choices (docs/analytics/robots.md): a
 * leading byte order mark (or the U+FFFD left of a partial one) is skipped, a `User-agent` value is
 * read up to its first character that is no letter, digit, `_` or `-`, and `* anything` is `*`.
 */

export interface RfcVerdict {
  allowed: boolean;
  /** The deciding rule's line, 1-based; null when no rule decides. */
  line: number | null;
}

/** RFC 9309 2.2.2 with RFC 3986 2.1 and 2.3: non-ASCII octets encoded, escapes upper case, unreserved characters decoded. */
export function rfcEncode(text: string): string {
  return text
    .replace(/[\u0080-\u{10FFFF}]/gu, (char) => encodeURIComponent(char))
    .replace(/%[0-9A-Fa-f]{2}/g, (escape) => {
      const char = String.fromCharCode(parseInt(escape.slice(1), 16));
      return /^[A-Za-z0-9._~-]$/.test(char) ? char : escape.toUpperCase();
    });
}

const WS = "[ \\t\\v\\f]*";
/** `name ":" value`, a comment after `#` left out. */
const RECORD = new RegExp(`^${WS}([^:#]*?)${WS}:${WS}([^#]*?)${WS}(?:#.*)?$`, "s");

type Rule = { allow: boolean; pattern: string; line: number };
type Group = { agents: string[]; rules: Rule[] };

function groupsOf(body: string): Group[] {
  const groups: Group[] = [];
  let open: Group | null = null;
  let afterAgentLine = false;
  body
    .replace(/^[\uFEFF\uFFFD]/, "")
    .split(/\r\n|\r|\n/)
    .forEach((text, index) => {
      const record = RECORD.exec(text);
      if (!record || record[1] === "") return;
      const name = (record[1] as string).toLowerCase();
      const value = record[2] as string;
      if (name === "user-agent") {
        if (!open || !afterAgentLine) groups.push((open = { agents: [], rules: [] }));
        open.agents.push(value === "*" || /^\*\s/.test(value) ? "*" : (/^[A-Za-z0-9_-]*/.exec(value)?.[0] ?? "").toLowerCase());
        afterAgentLine = true;
      } else if (name === "allow" || name === "disallow") {
        afterAgentLine = false;
        if (open && value !== "") open.rules.push({ allow: name === "allow", pattern: rfcEncode(value), line: index + 1 });
      }
    });
  return groups;
}

/** A path pattern as a regular expression: `*` any characters, a final `$` the end, anchored at the start. */
function regexOf(pattern: string): RegExp {
  const end = pattern.endsWith("$");
  const body = (end ? pattern.slice(0, -1) : pattern)
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}${end ? "$" : ""}`, "s");
}

/** Whether `agent` may fetch `url` (path and query, as fetched) under `body`, and the rule that decides. */
export function rfcJudge(body: string, agent: string, url: string): RfcVerdict {
  if (url === "/robots.txt") return { allowed: true, line: null };
  const token = /^[A-Za-z0-9_-]+$/.test(agent) ? agent.toLowerCase() : null;
  const groups = groupsOf(body);
  const named = groups.filter((group) => token !== null && group.agents.includes(token));
  const rules = (named.length > 0 ? named : groups.filter((group) => group.agents.includes("*"))).flatMap((group) => group.rules).sort((a, b) => a.line - b.line);
  const target = rfcEncode(url.startsWith("/") ? url : `/${url}`);
  const matching = rules.filter((rule) => regexOf(rule.pattern).test(target));
  const longest = Math.max(0, ...matching.map((rule) => rule.pattern.length));
  const best = matching.find((rule) => rule.pattern.length === longest && rule.allow) ?? matching.find((rule) => rule.pattern.length === longest);
  return best ? { allowed: best.allow, line: best.line } : { allowed: true, line: null };
}
