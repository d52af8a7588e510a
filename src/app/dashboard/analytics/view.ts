import type { Project } from "../../domain/projects.js";
import type { AnalyticsData } from "./data.js";
import type { AnalyticsState } from "./controls.js";

/** What the analytics page and its sections render from. */
export type AnalyticsView = AnalyticsState &
  AnalyticsData & {
    project: Project;
    /** Rows per page of the pages table. */
    limit: number;
    pending: boolean;
  };
