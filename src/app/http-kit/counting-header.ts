/** Tells the client that views accepted before its request are still being counted (e.g. during a big import). */
export const countingHeader = (pending: boolean): Record<string, string> => (pending ? { "Inkwell-Counting": "pending" } : {});

/** A report's headers: the counting header, and `Vary: Accept` since the same URL answers JSON or CSV (csv.ts). */
export const reportHeaders = (pending: boolean): Record<string, string> => ({ ...countingHeader(pending), Vary: "Accept" });
