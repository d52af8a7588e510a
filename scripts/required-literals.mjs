// Literals a regular expression cannot match without: for each pattern, a few lower-case strings
// of which every match contains at least one. The classifier scans a User-Agent for all of them
// at once and tests only the patterns whose literal occurred (see literal-index.ts).
import regexpTree from "regexp-tree";

/** Shorter literals still filter soundly, but hardly at all. */
const MIN_LENGTH = 3;

/**
 * A list of lower-case strings, one of which occurs in every match of `/source/flags` (compared
 * after folding both to lower case), or null when the pattern guarantees none of MIN_LENGTH.
 */
export function requiredLiterals(source, flags = "") {
  // RegExp#source escapes a bare `/` (valid inside a RegExp, not in the literal form parsed here).
  const ast = regexpTree.parse(`/${new RegExp(source, flags).source}/${flags}`);
  const found = required(ast.body);
  return found && found.every((literal) => literal.length >= MIN_LENGTH) ? [...new Set(found)] : null;
}

/** A set of alternatives one of which every match of `node` contains, or null. */
function required(node) {
  if (!node) return null;
  switch (node.type) {
    case "Char":
      return node.kind === "simple" || node.kind === "decimal" || node.kind === "hex" || node.kind === "unicode" ? [String.fromCodePoint(node.codePoint).toLowerCase()] : null;
    case "Group":
      return required(node.expression);
    case "Repetition":
      return minimumOf(node.quantifier) >= 1 ? required(node.expression) : null;
    case "Disjunction": {
      const left = node.left ? required(node.left) : null;
      const right = node.right ? required(node.right) : null;
      return left && right ? [...left, ...right] : null;
    }
    case "Alternative":
      return bestOfSequence(node.expressions);
    default:
      // Classes, assertions, backreferences: no literal of their own.
      return null;
  }
}

const minimumOf = (quantifier) => (quantifier.kind === "+" ? 1 : quantifier.kind === "Range" ? quantifier.from : 0);

/**
 * In a sequence, runs of consecutive plain characters are literals every match contains (zero-
 * width assertions do not break a run); a group or repeated item contributes its own set. The
 * most selective candidate wins: the one whose shortest alternative is longest.
 */
function bestOfSequence(expressions) {
  const candidates = [];
  let run = "";
  const endRun = () => {
    if (run) candidates.push([run]);
    run = "";
  };
  for (const expression of expressions) {
    if (expression.type === "Char") {
      const literal = required(expression);
      if (literal) run += literal[0];
      else endRun();
    } else if (expression.type === "Assertion") {
      // Zero-width (^, $, \b, lookarounds): the characters on both sides are still adjacent.
      continue;
    } else {
      endRun();
      const inner = required(expression);
      if (inner) candidates.push(inner);
    }
  }
  endRun();
  let best = null;
  for (const candidate of candidates) {
    const weakest = Math.min(...candidate.map((literal) => literal.length));
    if (!best || weakest > best.weakest) best = { candidate, weakest };
  }
  return best ? best.candidate : null;
}
