import nock from "nock";
import { afterAll } from "vitest";

/**
 * Integration and scenario files share their worker's module cache (vitest.config.ts: isolate
 * false). nock is loaded here for every one of them, so each sees the same HTTP edge whatever ran
 * before it; what a file set up there is gone after it: nock forgets its interceptors and lets
 * connections through again, as in a fresh worker.
 */
afterAll(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});
