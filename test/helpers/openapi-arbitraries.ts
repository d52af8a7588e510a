import fc from "fast-check";
import { nodeAt, type OpenApiContract } from "./openapi-contract.js";

/**
 * fast-check arbitraries read off the published OpenAPI document: values a schema accepts, and
 * values a hostile or careless client sends. Nothing here knows an endpoint; it knows JSON Schema.
 */

type Schema = Record<string, any>;

const resolve = (doc: any, schema: Schema): Schema => {
  if (typeof schema.$ref !== "string") return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  return resolve(doc, doc.components.schemas[name]);
};

const codePointLength = (value: string) => [...value].length;

/** Characters that break naive handling: NUL, lone surrogates, bidi overrides, zero-width, BOM, line separators. */
export const HOSTILE_CHARACTERS = ["\u0000", "\uD800", "\uDFFF", "\u202E", "\u2066", "\u200B", "\u200D", "\uFEFF", "\u2028", "\u0007", "😀", "é", "\\", '"', "%", "/", "'"];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.constantFrom(...HOSTILE_CHARACTERS, "a", " "), maxLength: 24 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", " ", "\t\n", "null", "0", "-1", "1e309", "NaN", "../../etc/passwd", "'; DROP TABLE jobs; --", "<script>alert(1)</script>", "%00", "%ZZ", "__proto__"),
  fc.constantFrom(10_000, 40_000, 100_000).map((n) => "x".repeat(n)),
  fc.constantFrom(3_000, 20_000).map((n) => "😀".repeat(n)),
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -0, 0.5, -1, 1e21),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any JSON value, hostile more often than not. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Values `schema` accepts, checked by the document's own validator so nothing invalid slips through. */
export function validValue(contract: OpenApiContract, pointer: string): fc.Arbitrary<unknown> {
  const validate = contract.validatorAt(pointer);
  return valueOf(contract.doc, nodeAt(contract.doc, pointer), 0).filter((value) => validate(value));
}

function valueOf(doc: any, raw: Schema, depth: number): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  if (schema.anyOf || schema.oneOf) {
    const { anyOf, oneOf, ...rest } = schema;
    return fc.oneof(...(anyOf ?? oneOf).map((branch: Schema) => valueOf(doc, { ...rest, ...resolve(doc, branch) }, depth)));
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ["string", "integer", "boolean", "null", "object"];
  return fc.oneof(...types.map((type) => valueOfType(doc, schema, type, depth)));
}

function valueOfType(doc: any, schema: Schema, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      return stringOf(schema);
    case "integer": {
      const min = schema.minimum ?? -(2 ** 31);
      const max = schema.maximum ?? 2 ** 31;
      // Bounds and their neighbours are where off-by-one mistakes live.
      return fc.oneof(fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) }), fc.constantFrom(min, max).filter(Number.isSafeInteger));
    }
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      if (depth > 4) return fc.constant([]);
      const items = schema.items ? valueOf(doc, schema.items, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      return fc.array(items, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, Math.max(schema.minItems ?? 0, 4)) });
    }
    case "object": {
      const properties: Record<string, Schema> = schema.properties ?? {};
      const required: string[] = schema.required ?? [];
      const record = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valueOf(doc, property, depth + 1)]));
      return fc.record(record, { requiredKeys: required.filter((name) => name in properties) });
    }
    default:
      throw new Error(`unsupported JSON Schema type ${type}`);
  }
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 64;
  const fits = (value: string) => codePointLength(value) >= minLength && codePointLength(value) <= maxLength;
  if (schema.format === "date") return dateArb.map((d) => d.toISOString().slice(0, 10));
  if (schema.format === "date-time") {
    // `x-not-after: now`: a time the service's clock has passed (a robots.txt version's effectiveAt).
    const dates = schema["x-not-after"] === "now" ? fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date(Date.now() - 60_000), noInvalidDate: true }) : dateArb;
    return fc.tuple(dates, fc.constantFrom("Z", "+05:30", "-0800", "+01", "z")).map(([d, zone]) => d.toISOString().replace("Z", zone));
  }
  // Filtering text until it happens to be a URI takes minutes: build URLs instead.
  if (schema.format === "uri") return fc.webUrl({ withQueryParameters: true, withFragments: true }).filter(fits);
  if (typeof schema.pattern === "string") {
    // Patterns forbidding characters still allow most text: mix plain and unusual-but-allowed characters.
    const mixed = fc.string({ unit: fc.constantFrom("a", " ", "é", "😀", "\u202E", "\u200B", "\n", "-", "/", "Z"), minLength, maxLength: Math.min(maxLength, Math.max(minLength, 24)) }).filter(fits);
    const matching = matchingArbitrary(schema.pattern);
    return matching ? fc.oneof(matching.filter(fits), mixed) : mixed;
  }
  return fc.string({ unit: "grapheme", minLength, maxLength: Math.min(maxLength, Math.max(minLength, 24)) }).filter(fits);
}

/** Strings built from the pattern, or null when fast-check cannot build from it (lookarounds). */
function matchingArbitrary(pattern: string): fc.Arbitrary<string> | null {
  try {
    return fc.stringMatching(new RegExp(pattern, "u"), { size: "small" });
  } catch {
    return null;
  }
}

const dateArb = fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2200-01-01T00:00:00Z"), noInvalidDate: true });
