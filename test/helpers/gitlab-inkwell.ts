import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { GITLAB_TOKEN, startFakeGitLab } from "./fake-gitlab.js";
import { freePort } from "./free-port.js";
import { startFakeModel, steps } from "./fake-model.js";
import { ADMIN_TOKEN, startTestServer } from "./server.js";

/** A directory's files as a path → content record (a fake repository's first commit). */
export function filesOf(dir: string, prefix = ""): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(files, filesOf(full, `${prefix}${name}/`));
    else files[`${prefix}${name}`] = readFileSync(full, "utf8");
  }
  return files;
}

/**
 * Inkwell with a GitLab project connected through its admin API, as a runner in GitLab CI meets
 * it: a fake GitLab holding `docsDir`'s files, a fake model, and the server at its own PUBLIC_URL
 * (the runner reports there, and it is the ID token's audience). `keyName` names the project key.
 */
export async function startGitLabInkwell(docsDir: string, keyName: string) {
  const gitlab = await startFakeGitLab({ files: filesOf(docsDir) });
  const model = await startFakeModel(steps({ text: "unused" }));
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const t = await startTestServer({ env: { PUBLIC_URL: publicUrl, INKWELL_HEARTBEAT_SECONDS: "5" }, port, taskWorkerOptions: { backoffBaseMs: 10, backoffCapMs: 50 } });
  const connected = await t.call("POST", "/admin/gitlab/projects", { token: ADMIN_TOKEN, body: { gitlabUrl: gitlab.url, project: gitlab.projectPath, token: GITLAB_TOKEN } });
  expect(connected.status, JSON.stringify(connected.body)).toBe(201);
  const projectId: string = connected.body.id;
  const key: string = (await t.call("POST", `/admin/projects/${projectId}/keys`, { token: ADMIN_TOKEN, body: { name: keyName } })).body.key;
  return {
    gitlab,
    model,
    t,
    publicUrl,
    projectId,
    key,
    async close() {
      await t.close();
      await model.close();
      await gitlab.close();
    },
  };
}
