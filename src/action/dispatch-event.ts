import { readFile } from "node:fs/promises";
import { z } from "zod";

const clientPayloadSchema = z.object({
  client_payload: z.object({ job_id: z.string().regex(/^[a-z0-9]{1,64}$/), run_attempt: z.int().min(1) }),
});

export interface DispatchedRun {
  jobId: string;
  runAttempt: number;
}

/** The job this workflow run is for, from the repository_dispatch event Inkwell sent. */
export async function readDispatchedRun(env: NodeJS.ProcessEnv): Promise<DispatchedRun> {
  if (env.GITHUB_EVENT_NAME !== "repository_dispatch") {
    throw new Error(
      `this workflow run was started by '${env.GITHUB_EVENT_NAME ?? "nothing"}', not by Inkwell: run the Action only on \`repository_dispatch\` with \`types: [inkwell-agent]\``,
    );
  }
  if (!env.GITHUB_EVENT_PATH) throw new Error("GITHUB_EVENT_PATH is unset, so the dispatched job is unknown");
  const parsed = clientPayloadSchema.safeParse(JSON.parse(await readFile(env.GITHUB_EVENT_PATH, "utf8")));
  if (!parsed.success) throw new Error("the repository_dispatch event carries no Inkwell job (client_payload.job_id and run_attempt)");
  return { jobId: parsed.data.client_payload.job_id, runAttempt: parsed.data.client_payload.run_attempt };
}
