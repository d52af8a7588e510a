import AhoCorasick from "modern-ahocorasick";

/** A pattern with the lower-case literals one of which every match contains (null: none known). */
export interface IndexedPattern<T> {
  readonly value: T;
  readonly pattern: string;
  readonly flags: string;
  readonly literals: readonly string[] | null;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]+/g;

/**
 * Many patterns, tried in list order, where only those whose required literal occurs in the text
 * are run: one Aho–Corasick pass over the text instead of hundreds of regular expressions. The
 * literals come from scripts/required-literals.mjs, so skipping a pattern never loses a match:
 * - the text is folded as a case-insensitive regular expression folds it (upper, then lower case:
 *   `ı` and `ſ` meet `i` and `s`), which only ever adds candidates for case-sensitive patterns;
 * - the scanner matches whole grapheme clusters, a regular expression code units, so only
 *   printable-ASCII literals are indexed and everything else is dropped from the text first
 *   (dropping characters keeps an ASCII run of the text contiguous); a pattern with another
 *   literal is always run.
 */
export class LiteralIndex<T> {
  readonly #regexps: RegExp[];
  readonly #values: T[];
  readonly #always: number[] = [];
  readonly #patternsOfLiteral: number[][] = [];
  readonly #scanner: AhoCorasick | null;

  constructor(patterns: readonly IndexedPattern<T>[]) {
    this.#regexps = patterns.map((p) => new RegExp(p.pattern, p.flags));
    this.#values = patterns.map((p) => p.value);
    const literalIds = new Map<string, number>();
    patterns.forEach((p, index) => {
      if (!p.literals || p.literals.length === 0 || !p.literals.every((literal) => PRINTABLE_ASCII.test(literal))) {
        this.#always.push(index);
        return;
      }
      for (const literal of p.literals) {
        let id = literalIds.get(literal);
        if (id === undefined) {
          literalIds.set(literal, (id = literalIds.size));
          this.#patternsOfLiteral.push([]);
        }
        (this.#patternsOfLiteral[id] as number[]).push(index);
      }
    });
    this.#scanner = literalIds.size > 0 ? new AhoCorasick([...literalIds.keys()]) : null;
  }

  /** The first pattern, in list order, that matches `text`, with its match. */
  first(text: string): { value: T; match: RegExpExecArray } | undefined {
    for (const index of this.#candidates(text)) {
      const match = (this.#regexps[index] as RegExp).exec(text);
      if (match) return { value: this.#values[index] as T, match };
    }
    return undefined;
  }

  #candidates(text: string): number[] {
    const candidates = new Set(this.#always);
    if (this.#scanner) {
      const folded = text.toUpperCase().toLowerCase().replace(NOT_PRINTABLE_ASCII, "");
      for (const hit of this.#scanner.iterate(folded)) for (const index of this.#patternsOfLiteral[hit.patternIndex] as number[]) candidates.add(index);
    }
    return [...candidates].sort((a, b) => a - b);
  }
}
