/** An http(s) URL field: the rule the OpenAPI document states as a pattern, and the server's check of it. */
import { z } from "zod";
import { isStorableText, STORABLE_TEXT_ERROR, stringExpected } from "./stored-values.js";

// A host WHATWG URL parsing accepts (none of its forbidden code points, no userinfo), and a port it accepts.
// A path may not start with two slashes (or a backslash, which URLs read as one): `https://a//b` reads
// as a second host to many HTTP stacks, and no one means it.
const PORT = "(?::(?:\\d{0,4}|[0-5]\\d{4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5]))?";
const PATH = "(?:/(?:[^\\s/\\\\]\\S*)?|[?#]\\S*)?";
const HTTP_URL = new RegExp(`^https?://[^\\s/?#@\\\\:<>[\\]^|%]+${PORT}${PATH}$`);
const DOCUMENTED_PATTERN = `^https?://[^\\s/?#@\\\\:<>[\\]^|%\\u0000\\uD800-\\uDFFF]+${PORT}(?:/(?:[^\\s/\\\\\\u0000\\uD800-\\uDFFF][^\\s\\u0000\\uD800-\\uDFFF]*)?|[?#][^\\s\\u0000\\uD800-\\uDFFF]*)?$`;
// An IPv6 literal host ([::1], [::ffff:10.0.0.1]) is checked by URL parsing itself: its grammar is too
// loose to state as a pattern a generator could not break, so the documented pattern leaves it out.
const IPV6_HOST_URL = new RegExp(`^https?://\\[[0-9A-Fa-f:.]+\\]${PORT}${PATH}$`);

export const isHttpUrl = (url: string): boolean => HTTP_URL.test(url) || (IPV6_HOST_URL.test(url) && URL.canParse(url));

/** Where the URL may point (public addresses, an operator's allowance) is each caller's policy, checked after this. */
export const httpUrl = (maxLength: number, description: string) =>
  z
    .string(stringExpected)
    .max(maxLength, { error: `must be at most ${maxLength} characters` })
    .refine(isHttpUrl, { error: "must be an http(s) URL" })
    .refine(isStorableText, { error: STORABLE_TEXT_ERROR })
    .meta({ description, pattern: DOCUMENTED_PATTERN });
