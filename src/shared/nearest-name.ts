import { closest, distance } from "fastest-levenshtein";

/**
 * The known name a typo most likely meant: the same name in another case, else one a few edits
 * away; null when none is that near. The API's unknown parameters and the CLI's unknown options
 * are answered with the same guess.
 */
export function nearestName(name: string, known: readonly string[]): string | null {
  if (known.length === 0) return null;
  const sameLetters = known.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  if (sameLetters) return sameLetters;
  const best = closest(name, known);
  return distance(name, best) <= Math.max(2, Math.floor(name.length / 3)) ? best : null;
}
