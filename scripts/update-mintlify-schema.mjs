#!/usr/bin/env node
// Writes Mintlify's own docs.json schema (from the maintained @mintlify/validation package, a dev
// dependency) to vendor/mintlify/, where the Action's gate reads it at run time from its checkout.
// Run after updating @mintlify/validation: npm run update:mintlify-schema
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { docsConfigJsonSchema } from "@mintlify/validation";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const version = JSON.parse(readFileSync(path.join(root, "node_modules", "@mintlify", "validation", "package.json"), "utf8")).version;
const out = path.join(root, "vendor", "mintlify", "docs-schema.json");
writeFileSync(out, `${JSON.stringify({ $comment: `docsConfigJsonSchema of @mintlify/validation ${version}`, ...docsConfigJsonSchema })}\n`);
console.log(`wrote ${path.relative(root, out)} from @mintlify/validation ${version}`);
