import { run } from "./run.js";
import { runInGitLab } from "./gitlab/run-gitlab.js";

// `node dist/index.js gitlab` is the GitLab CI/CD component's runner; without it, the GitHub Action.
if (process.argv[2] === "gitlab") process.exitCode = await runInGitLab();
else await run();
