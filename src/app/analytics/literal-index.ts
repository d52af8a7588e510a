/** A pattern with the lower-case literals one of which every match contains (null: none known). */
export interface IndexedPattern {
  readonly pattern: string;
  /** Default: none (case-sensitive). */
  readonly flags?: string;
  readonly literals: readonly string[] | null;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]+/g;
const ALPHABET = 0x7f - 0x20;

/** The three printable-ASCII characters at `at` as one number below ALPHABET³. */
const codeAt = (text: string, at: number) => ((text.charCodeAt(at) - 0x20) * ALPHABET + (text.charCodeAt(at + 1) - 0x20)) * ALPHABET + (text.charCodeAt(at + 2) - 0x20);

/**
 * Many patterns, tried in list order, where only those whose required literal occurs in the text
 * are run: one pass over the text instead of hundreds of regular expressions. The literals come
 * from scripts/required-literals.mjs, so skipping a pattern never loses a match:
 * - the text is folded to lower case (as the literals are), which only ever adds candidates for
 *   case-sensitive patterns;
 * - only printable-ASCII literals of three or more characters are indexed (a pattern with another
 *   literal is always run), and every other character is dropped from the text before the scan:
 *   dropping characters keeps an ASCII run of the text contiguous.
 * The scan looks up each position's three characters in a table of the literals' first three, and
 * compares only the literals starting with them. (An Aho–Corasick library was tried: the one at
 * hand matches grapheme clusters, so a combining mark hid a name, and it cost 5 µs a User-Agent.)
 */
export class LiteralIndex<T extends IndexedPattern> {
  readonly #regexps: RegExp[];
  readonly #always: number[] = [];
  readonly #patternsOfLiteral: number[][] = [];
  /** Literal ids by the code of their first three characters; `#starts` flags the codes in use. */
  readonly #literalsByStart = new Map<number, { literal: string; id: number }[]>();
  readonly #starts = new Uint8Array(ALPHABET ** 3);

  constructor(private readonly patterns: readonly T[]) {
    this.#regexps = patterns.map((p) => new RegExp(p.pattern, p.flags));
    const literalIds = new Map<string, number>();
    patterns.forEach((p, index) => {
      if (!p.literals || p.literals.length === 0 || !p.literals.every((literal) => literal.length >= 3 && PRINTABLE_ASCII.test(literal))) {
        this.#always.push(index);
        return;
      }
      for (const literal of p.literals) {
        let id = literalIds.get(literal);
        if (id === undefined) {
          literalIds.set(literal, (id = literalIds.size));
          this.#patternsOfLiteral.push([]);
          const start = codeAt(literal, 0);
          this.#starts[start] = 1;
          const bucket = this.#literalsByStart.get(start) ?? [];
          bucket.push({ literal, id });
          this.#literalsByStart.set(start, bucket);
        }
        (this.#patternsOfLiteral[id] as number[]).push(index);
      }
    });
  }

  /** The first pattern, in list order, that matches `text`, with its match. */
  first(text: string): { entry: T; match: RegExpExecArray } | undefined {
    for (const index of this.#candidates(text)) {
      const match = (this.#regexps[index] as RegExp).exec(text);
      if (match) return { entry: this.patterns[index] as T, match };
    }
    return undefined;
  }

  #candidates(text: string): number[] {
    const candidates = new Set(this.#always);
    const folded = text.toLowerCase().replace(NOT_PRINTABLE_ASCII, "");
    for (let at = 0; at + 3 <= folded.length; at++) {
      const start = codeAt(folded, at);
      if (this.#starts[start] === 0) continue;
      for (const { literal, id } of this.#literalsByStart.get(start) as { literal: string; id: number }[]) {
        if (folded.startsWith(literal, at)) for (const index of this.#patternsOfLiteral[id] as number[]) candidates.add(index);
      }
    }
    return candidates.size > 1 ? [...candidates].sort((a, b) => a - b) : [...candidates];
  }
}
