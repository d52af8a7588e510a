import { slugify as vitepressSlugify } from "@mdit-vue/shared";
import slugify from "@sindresorhus/slugify";
import GithubSlugger from "github-slugger";
import type { Framework } from "./framework.js";

/**
 * Heading anchors as each framework makes them, from its own code (each rule cites where):
 * - Mintlify (@mintlify/common `slugify` and link-rot's `cleanHeadingId`): lowercased, spaces to
 *   `-`, @sindresorhus/slugify over the percent-encoded text (so letters of any script stay), then
 *   decoded and stripped of `?,;:!'"()[]{}` and emoji; duplicates `x-2`, `x-3`; h1–h4 only.
 * - Docusaurus (@docusaurus/utils `createSlugger`) and plain Markdown (GitHub): github-slugger;
 *   duplicates `x-1`.
 * - VitePress (@mdit-vue/shared `slugify`, markdown-it-anchor's `uniqueSlug`): duplicates `x-1`.
 * - MkDocs (Python-Markdown `toc.slugify`): ASCII only, `[^\w\s-]` removed, runs of `-`/space to
 *   one `-`; duplicates `x_1`; or pymdownx.slugs' `slugify` when mkdocs.yml's toc names it
 *   (Unicode kept, each space one `-`).
 */
export interface HeadingSlugger {
  /** The anchor of the next heading of `level` with this text; null when the framework makes none. */
  slug(text: string, level: number): string | null;
  /** An explicit id (`{#id}`) as the framework writes it. */
  explicit(id: string): string;
}

export interface SlugOptions {
  /** MkDocs: the toc extension's slugify, as mkdocs.yml names it. */
  mkdocsSlugify?: "python-markdown" | "pymdownx-lower" | "pymdownx";
  /** MkDocs: pymdownx.tabbed's own `slugify` (tab ids from titles), when mkdocs.yml gives it one. */
  mkdocsTabs?: { lower: boolean; combineHeaderSlug: boolean; separator: string };
}

const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}/gu;

/** A percent-encoded anchor or path decoded; as written when it is not valid encoding. */
export const safeDecode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** VitePress' default slugify (@mdit-vue/shared), as it makes heading ids and, in VitePress 2, link fragments. */
export const vitepressSlug = (text: string) => vitepressSlugify(text);

/** link-rot's `cleanHeadingId`: how Mintlify compares an anchor with a heading's id. */
export const mintlifyCleanId = (id: string) => safeDecode(id).replace(/[?,;:!'"()[\]{}]/g, "").replace(EMOJI, "");

/** @mintlify/common's `slugify` for one heading text (before duplicates are numbered). */
export function mintlifySlug(title: string): string {
  const unicodeId = encodeURIComponent(title.toLowerCase().trim().replace(/\s+/g, "-"));
  const slug = /%[0-9A-F]{2}/i.test(unicodeId)
    ? slugify(unicodeId, { decamelize: false, preserveCharacters: ["%", "_"], lowercase: false })
    : slugify(unicodeId, { decamelize: false, preserveCharacters: ["_"] });
  return mintlifyCleanId(slug);
}

/** Mintlify's `generateParamFieldId`: ParamField and ResponseField anchors (`param-user-id`, `param-user-id-1`). */
export const mintlifyParamId = (name: string, index: number) => slugify(`param-${name}${index > 0 ? `_${index}` : ""}`, { decamelize: true });

/** Mintlify's `generateComponentId`: Accordion and View anchors from their titles. */
export const mintlifyComponentId = (title: string) => slugify(title.replace(":", "-"), { decamelize: false });

/** Python-Markdown's default `toc.slugify`. */
export function pythonMarkdownSlug(text: string): string {
  // encode('ascii', 'ignore'): every character past ASCII dropped.
  const ascii = [...text.normalize("NFKD")].filter((character) => character.charCodeAt(0) < 0x80).join("");
  return ascii
    .replace(/[^\w\s-]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, "-");
}

/** pymdownx.slugs' `slugify` (`_uslugify`): Unicode kept, every space one separator. */
export function pymdownxSlug(text: string, lower: boolean, separator = "-"): string {
  const value = text.normalize("NFC").replace(/<\/?[^>]*>/g, "").trim();
  return (lower ? value.toLowerCase() : value).replace(/[^\p{L}\p{N}_\- ]/gu, "").replace(/ /g, separator);
}

export function headingSlugger(framework: Framework, options: SlugOptions = {}): HeadingSlugger {
  const seen = new Map<string, number>();
  /** Numbers a repeated slug the framework's way: `first` is the suffix of the first repeat. */
  const unique = (slug: string, separator: string, first: number) => {
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    return count === 0 ? slug : `${slug}${separator}${count - 1 + first}`;
  };
  switch (framework) {
    case "mintlify":
      return { slug: (text, level) => (level <= 4 ? unique(mintlifySlug(text), "-", 2) : null), explicit: (id) => mintlifyCleanId(id.trim().replace(/\s+/g, "-")) };
    case "vitepress":
      return { slug: (text) => unique(vitepressSlugify(text), "-", 1), explicit: (id) => id };
    case "mkdocs": {
      const slug = options.mkdocsSlugify === "pymdownx-lower" ? (text: string) => pymdownxSlug(text, true) : options.mkdocsSlugify === "pymdownx" ? (text: string) => pymdownxSlug(text, false) : pythonMarkdownSlug;
      // Python-Markdown's `unique`: an empty or taken id gets `_1`, a taken `x_1` becomes `x_2`.
      const used = new Set<string>();
      const pythonUnique = (candidate: string) => {
        let id = candidate;
        while (!id || used.has(id)) {
          const counted = /^(.*)_([0-9]+)$/.exec(id);
          id = counted ? `${counted[1]}_${Number(counted[2]) + 1}` : `${id}_1`;
        }
        used.add(id);
        return id;
      };
      return { slug: (text) => pythonUnique(slug(text)), explicit: (id) => (used.add(id), id) };
    }
    default: {
      const github = new GithubSlugger();
      return { slug: (text) => github.slug(text), explicit: (id) => id };
    }
  }
}
