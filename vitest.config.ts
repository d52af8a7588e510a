import { defineConfig } from "vitest/config";

// The integration suite runs once per store: PGlite always, PostgreSQL when TEST_DATABASE_URL is set.
const stores = ["pglite", ...(process.env.TEST_DATABASE_URL ? ["postgres"] : [])];
const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    globalSetup: ["test/helpers/global-setup.ts"],
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts", "test/scenarios/**/*.test.ts"], ...timeouts } },
      ...stores.map((store) => ({
        test: { name: store, include: ["test/integration/**/*.test.ts"], env: { INKWELL_TEST_STORE: store }, ...timeouts },
      })),
    ],
  },
});
