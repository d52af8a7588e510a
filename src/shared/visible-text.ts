import { replace as withoutInvisibleCharacters } from "out-of-character";

const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
// U+E0100–U+E01EF (variation selectors supplement): out-of-character keeps them, and a run of them can carry a hidden message.
const VARIATION_SELECTORS_SUPPLEMENT = /\uDB40[\uDD00-\uDDEF]/g;

/**
 * Text as a person reading it on GitHub sees it, for the model: without HTML comments (which
 * GitHub does not render) and without invisible characters (zero-width, bidirectional controls,
 * Unicode tags, variation selectors; the list is out-of-character's), where instructions can hide.
 */
export function visibleText(text: string): string {
  return withoutInvisibleCharacters(text.replace(HTML_COMMENT, "")).replace(VARIATION_SELECTORS_SUPPLEMENT, "");
}
