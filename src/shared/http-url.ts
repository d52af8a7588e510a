/** An http(s) URL field: the rule the OpenAPI document states as a pattern, and the server's check of it. */
import { z } from "zod";
import { isStorableText, STORABLE_TEXT_ERROR, stringExpected } from "./stored-values.js";

// WHATWG URL parsing refuses hosts in ways a pattern over any text cannot follow (IDNA rules, punycode
// labels, a last label that is a number but not an IPv4 address: `http://.0`). So the documented pattern
// states a plain ASCII host every URL parser takes: dotted-decimal IPv4, or names whose labels are
// letters, digits and `_`, joined by single hyphens, the last one starting with a letter or `_` (never a
// number). What the pattern leaves out (IPv6 literals, international names, punycode) the server still
// takes when URL parsing does.
const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const LABEL_TAIL = "(?:-[A-Za-z0-9_]+)*";
const ASCII_HOST = `(?:(?:${OCTET}\\.){3}${OCTET}|(?:[A-Za-z0-9_]+${LABEL_TAIL}\\.)*[A-Za-z_][A-Za-z0-9_]*${LABEL_TAIL}\\.?)`;
const PORT = "(?::(?:\\d{0,4}|[0-5]\\d{4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5]))?";
// A path may not start with two slashes (or a backslash, which URLs read as one): `https://a//b` reads
// as a second host to many HTTP stacks, and no one means it.
const PATH = "(?:/(?:[^\\s/\\\\]\\S*)?|[?#]\\S*)?";
const DOCUMENTED_PATH = "(?:/(?:[^\\s/\\\\\\u0000\\uD800-\\uDFFF][^\\s\\u0000\\uD800-\\uDFFF]*)?|[?#][^\\s\\u0000\\uD800-\\uDFFF]*)?";
export const DOCUMENTED_PATTERN = `^https?://${ASCII_HOST}${PORT}${DOCUMENTED_PATH}$`;
const ASCII_HOST_URL = new RegExp(`^https?://${ASCII_HOST}${PORT}${PATH}$`);
// Any other host without WHATWG's forbidden code points or userinfo, or an IPv6 literal: taken when URL parsing takes it.
const OTHER_HOST_URL = new RegExp(`^https?://(?:[^\\s/?#@\\\\:<>[\\]^|%]+|\\[[0-9A-Fa-f:.]+\\])${PORT}${PATH}$`);

export const isHttpUrl = (url: string): boolean => ASCII_HOST_URL.test(url) || (OTHER_HOST_URL.test(url) && URL.canParse(url));

/** Where the URL may point (public addresses, an operator's allowance) is each caller's policy, checked after this. */
export const httpUrl = (maxLength: number, description: string) =>
  z
    .string(stringExpected)
    .max(maxLength, { error: `must be at most ${maxLength} characters` })
    .refine(isHttpUrl, { error: "must be an http(s) URL" })
    .refine(isStorableText, { error: STORABLE_TEXT_ERROR })
    .meta({ description, pattern: DOCUMENTED_PATTERN });
