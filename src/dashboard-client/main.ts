// The dashboard's only script (CSP: script-src 'self'). Pages work without it; it adds copy
// buttons, the visitors chart and live job status.
import { enhanceCopyButtons } from "./copy.js";
import { drawVisitorsChart } from "./visitors-chart.js";
import { followLiveJob } from "./live-job.js";

enhanceCopyButtons(document);
drawVisitorsChart(document);
followLiveJob(document);
