import { run } from "./run.js";

await run();
