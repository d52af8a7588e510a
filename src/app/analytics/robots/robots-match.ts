/**
 * How a robots.txt path pattern meets a URL (RFC 9309, 2.2.2 and 2.2.3): both sides percent-encoded
 * the same way before they are compared, `*` any run of characters, `$` the end of the URL (only as
 * the pattern's last character), anchored at the start of the URL's path. The URL is what the agent
 * fetched: path and query, as sent.
 */

const HEX = /^[0-9A-Fa-f]{2}$/;
/** RFC 3986, 2.3: a percent-encoded unreserved character is the character itself (RFC 9309, 2.2.2's table: `/foo/bar/%62%61%7A` is `/foo/bar/baz`). */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The form a path pattern or a URL is compared in: octets outside US-ASCII percent-encoded (as
 * UTF-8), every percent-encoding in upper case, and unreserved characters decoded. Reserved ones stay
 * as written: `%2F` is not `/`, and an encoded `*` or `$` is no wildcard.
 */
export function matchForm(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; ) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === "%" && HEX.test(hex)) {
      const char = String.fromCharCode(parseInt(hex, 16));
      out += UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
      i += 3;
      continue;
    }
    const code = text.codePointAt(i) as number;
    const char = String.fromCodePoint(code);
    out += code < 0x80 ? char : [...Buffer.from(char, "utf8")].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
    i += char.length;
  }
  return out;
}

/**
 * Whether `pattern` matches `url` from its start (both in matchForm). The positions in the URL that
 * the pattern's prefix can end at, kept as a sorted list, so a pattern of many `*` costs
 * pattern × URL, never an exponential backtrack.
 */
export function patternMatches(pattern: string, url: string): boolean {
  let ends = [0];
  for (let p = 0; p < pattern.length; p++) {
    const char = pattern[p];
    if (char === "$" && p === pattern.length - 1) return ends.at(-1) === url.length;
    if (char === "*") {
      const from = ends[0] as number;
      ends = Array.from({ length: url.length - from + 1 }, (_, i) => from + i);
      continue;
    }
    ends = ends.filter((end) => end < url.length && url[end] === char).map((end) => end + 1);
    if (ends.length === 0) return false;
  }
  return true;
}
