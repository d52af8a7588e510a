import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["lib/**", "dist/**", "node_modules/**", "coverage/**", "data/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      // `import { type X }` keeps an empty `import {}` in lib/: the module and its dependencies load for nothing.
      "@typescript-eslint/no-import-type-side-effects": "error",
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  {
    files: ["src/cli/**", "scripts/**", "bench/**", "bin/**", "test/helpers/global-setup.ts"],
    rules: { "no-console": "off" },
  },
  {
    files: ["src/dashboard-client/**"],
    languageOptions: { globals: globals.browser },
  },
  {
    // Tests read arbitrary JSON responses.
    files: ["test/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["src/action/**", "src/shared/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["probot", "probot/*", "**/app/**", "../app/*"], message: "The Action and shared types never import the app side." }] },
      ],
    },
  },
);
