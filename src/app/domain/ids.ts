import { randomBytes } from "node:crypto";
import { notFound } from "./errors.js";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Random lowercase alphanumeric id; 20 characters carry ~103 bits. Safe in URLs and branch names. */
export function newId(length = 20): string {
  const bytes = randomBytes(length * 2);
  let id = "";
  for (let i = 0; id.length < length; i++) {
    if (i >= bytes.length) return id + newId(length - id.length);
    const byte = bytes[i] ?? 0;
    // Rejection sampling keeps every character equally likely.
    if (byte < 252) id += ALPHABET[byte % 36];
  }
  return id;
}

const ID_PATTERN = /^[a-z0-9]{1,64}$/;

function isWellFormedId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** An id from a URL, when it could name something; anything else names nothing (NotFoundError, like an unknown id). */
export function wellFormedIdOf(value: string | undefined, what: string): string {
  if (value === undefined || !isWellFormedId(value)) throw notFound(what);
  return value;
}

/** A run attempt from a URL (1, 2, …); anything else names no run (NotFoundError). */
export function wellFormedAttemptOf(value: string | undefined): number {
  if (value === undefined || !/^[1-9]\d{0,8}$/.test(value)) throw notFound("Run");
  return Number(value);
}
