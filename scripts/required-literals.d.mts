/** Lower-case strings one of which every match of `/source/flags` contains, or null when none is known. */
export function requiredLiterals(source: string, flags?: string): string[] | null;
