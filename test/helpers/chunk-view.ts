import type { ChunkView } from "../../src/app/analytics/rollup/plan-types.js";
import { CLASS_CODE } from "../../src/app/analytics/classify/traffic-class.js";

/** A view as a rollup chunk reads it from the inbox: a person's html page view on `windowDay` of the salt window starting `windowStart`, unless `options` say otherwise. */
export const chunkView = (windowStart: number, windowDay: number, options: Partial<ChunkView> = {}): ChunkView => ({
  projectId: "project-1",
  windowStart,
  day: windowStart + windowDay,
  at: (windowStart + windowDay) * 86_400_000,
  pathId: 7,
  visitor: "42",
  trafficClass: CLASS_CODE.human,
  category: null,
  agentId: null,
  verification: null,
  format: 0,
  status: 200,
  sourceId: null,
  groupIds: [],
  ...options,
});
