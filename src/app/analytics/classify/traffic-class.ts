/** How a class is stored (smallint) in the inbox and raw events. */
export const CLASS_CODE = { human: 0, ai: 1, bot: 2 } as const;
export type ClassCode = (typeof CLASS_CODE)[keyof typeof CLASS_CODE];
