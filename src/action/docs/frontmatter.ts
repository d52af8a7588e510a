import { parse as parseYaml } from "yaml";

/** A page's frontmatter as a mapping; empty when there is none or it does not parse. */
export function frontmatterOf(text: string): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!match) return {};
  try {
    const value = parseYaml(match[1] ?? "", { logLevel: "silent" }) as unknown;
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
