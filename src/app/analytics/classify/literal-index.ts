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

const pairAt = (text: string, at: number) => (text.charCodeAt(at) - 0x20) * ALPHABET + (text.charCodeAt(at + 1) - 0x20);

interface Literal {
  readonly text: string;
  /** Patterns (numbered across all lists) that contain it. */
  readonly patterns: number[];
}

/**
 * Several lists of patterns, each tried in its own order, behind one pass over the text: only the
 * patterns whose required literal occurs in the text are run. The literals come from
 * scripts/required-literals.mjs, so skipping a pattern never loses a match:
 * - the text is folded to lower case (as the literals are), which only ever adds candidates for
 *   case-sensitive patterns;
 * - only printable-ASCII literals of three or more characters are indexed (a pattern with another
 *   literal is always run), and every other character is dropped from the text before the scan:
 *   dropping characters keeps an ASCII run of the text contiguous.
 * The scan looks each position's first two characters up in a small table of the literals' first
 * two (it stays in the CPU's nearest cache), then its first three in a bit set, and only where a
 * literal starts there compares the literals starting with those four characters. (An Aho–Corasick library was tried: the one at hand matches
 * grapheme clusters, so a combining mark hid a name, and it cost 5 µs a User-Agent.)
 */
type PatternLists = Record<string, readonly IndexedPattern[]>;
/** The first match of one list: its entry and what the pattern matched. */
export type ListMatch<Lists extends PatternLists, K extends keyof Lists> = { entry: Lists[K][number]; match: RegExpExecArray };

export class LiteralIndex<Lists extends PatternLists> {
  readonly #patterns: { readonly entry: IndexedPattern; readonly regexp: RegExp }[] = [];
  /** Each list's patterns are numbered `[start, end)`. */
  readonly #ranges = new Map<keyof Lists, { start: number; end: number; always: number[] }>();
  readonly #pairs = new Uint8Array(ALPHABET * ALPHABET);
  /** One bit per code of three characters that starts a literal. */
  readonly #triples = new Uint32Array(Math.ceil(ALPHABET ** 3 / 32));
  /** Literals of three characters by their code; longer ones by the code of their first four. */
  readonly #threeCharLiterals = new Map<number, Literal>();
  readonly #literalsByStart = new Map<number, Literal[]>();

  constructor(lists: Lists) {
    const literals = new Map<string, Literal>();
    for (const [list, entries] of Object.entries(lists)) {
      const range = { start: this.#patterns.length, end: this.#patterns.length, always: [] as number[] };
      this.#ranges.set(list, range);
      for (const entry of entries) {
        const index = this.#patterns.push({ entry, regexp: new RegExp(entry.pattern, entry.flags) }) - 1;
        if (!entry.literals || entry.literals.length === 0 || !entry.literals.every((text) => text.length >= 3 && PRINTABLE_ASCII.test(text))) {
          range.always.push(index);
          continue;
        }
        for (const text of entry.literals) {
          let literal = literals.get(text);
          if (!literal) {
            literals.set(text, (literal = { text, patterns: [] }));
            const pair = pairAt(text, 0);
            this.#pairs[pair] = 1;
            const code = pair * ALPHABET + (text.charCodeAt(2) - 0x20);
            this.#triples[code >>> 5] = (this.#triples[code >>> 5] as number) | (1 << (code & 31));
            if (text.length === 3) this.#threeCharLiterals.set(code, literal);
            else {
              const longCode = code * ALPHABET + (text.charCodeAt(3) - 0x20);
              const bucket = this.#literalsByStart.get(longCode) ?? [];
              bucket.push(literal);
              this.#literalsByStart.set(longCode, bucket);
            }
          }
          literal.patterns.push(index);
        }
      }
      range.end = this.#patterns.length;
    }
  }

  /** The patterns worth running on `text`, for every list at once. */
  scan(text: string): LiteralScan<Lists> {
    const folded = text.toLowerCase().replace(NOT_PRINTABLE_ASCII, "");
    const pairs = this.#pairs;
    const triples = this.#triples;
    let found: number[] | null = null;
    let next = folded.charCodeAt(0) - 0x20;
    for (let at = 0; at + 3 <= folded.length; at++) {
      const pair = next * ALPHABET + (next = folded.charCodeAt(at + 1) - 0x20);
      if (pairs[pair] === 0) continue;
      const code = pair * ALPHABET + (folded.charCodeAt(at + 2) - 0x20);
      if (((triples[code >>> 5] as number) & (1 << (code & 31))) === 0) continue;
      const short = this.#threeCharLiterals.get(code);
      if (short) (found ??= []).push(...short.patterns);
      if (at + 4 > folded.length) continue;
      const bucket = this.#literalsByStart.get(code * ALPHABET + (folded.charCodeAt(at + 3) - 0x20));
      if (bucket) for (const literal of bucket) if (folded.startsWith(literal.text, at)) (found ??= []).push(...literal.patterns);
    }
    return new LiteralScan(this, text, found);
  }

  /** The first pattern of `list`, in list order, among `found` (and the always-run ones) that matches `text`. */
  firstOf<K extends keyof Lists>(list: K, text: string, found: readonly number[] | null): ListMatch<Lists, K> | undefined {
    const range = this.#ranges.get(list);
    if (!range) throw new Error(`no pattern list ${String(list)}`);
    // Most texts hold no literal of a list: that answer costs no allocation.
    let candidates: number[] | null = range.always.length > 0 ? [...range.always] : null;
    if (found) for (const index of found) if (index >= range.start && index < range.end) (candidates ??= []).push(index);
    if (candidates === null) return undefined;
    for (const index of candidates.length > 1 ? [...new Set(candidates)].sort((a, b) => a - b) : candidates) {
      const pattern = this.#patterns[index] as { entry: Lists[K][number]; regexp: RegExp };
      const match = pattern.regexp.exec(text);
      if (match) return { entry: pattern.entry, match };
    }
    return undefined;
  }
}

/** One text scanned once: ask each list for its first match. */
export class LiteralScan<Lists extends PatternLists> {
  constructor(
    private readonly index: LiteralIndex<Lists>,
    private readonly text: string,
    private readonly found: readonly number[] | null,
  ) {}

  first<K extends keyof Lists>(list: K): ListMatch<Lists, K> | undefined {
    return this.index.firstOf(list, this.text, this.found);
  }
}
