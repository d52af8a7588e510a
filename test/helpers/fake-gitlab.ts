/**
 * A GitLab instance at the HTTP edge, for tests: the REST API calls Inkwell makes (shapes from
 * docs.gitlab.com/api: projects, hooks, pipelines, merge requests, notes, members, users), its OpenID
 * discovery and keys with CI ID tokens signed by its own key (claims as docs.gitlab.com/ci/secrets/
 * id_token_authentication lists them), webhook deliveries as the instance sends them (X-Gitlab-Token,
 * and the Standard Webhooks signature when the hook has a signing token), and a bare git remote
 * standing in for the project's repository.
 */
import { execFileSync } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { parseAllDocuments } from "yaml";

export const GITLAB_TOKEN = "glpat-inkwell-test-0123456789";
export const GITLAB_BOT = { id: 900, username: "project_42_bot_inkwell", name: "Inkwell", bot: true };

export interface FakeGitLabUser {
  id: number;
  username: string;
  name: string;
  bot: boolean;
  /** Access level in the project (10 guest, 20 reporter, 30 developer, 40 maintainer, 50 owner); absent: not a member. */
  accessLevel?: number;
}

export interface FakeMergeRequest {
  id: number;
  iid: number;
  title: string;
  description: string;
  source_branch: string;
  target_branch: string;
  labels: string[];
  reviewer_ids: number[];
  state: "opened" | "closed" | "merged";
  draft: boolean;
  web_url: string;
  merged_at: string | null;
  created_at: string;
  updated_at: string;
  /** The target branch's commit when it was opened, and the source branch's head: its diff is between them. */
  diff_refs: { base_sha: string; head_sha: string };
  /** The commit a merge put on the target branch (a merge commit). */
  merge_commit_sha: string | null;
}

/** A pipeline of the project's own CI (a push, a merge request): its jobs, their traces. */
export interface FakeCiPipeline {
  id: number;
  sha: string;
  ref: string;
  source: "push" | "merge_request_event";
  status: "running" | "success" | "failed" | "canceled" | "skipped" | "manual";
  jobs: { id: number; name: string; status: "success" | "failed"; allowFailure: boolean; trace: string }[];
}

export interface FakeHook {
  id: number;
  url: string;
  token: string;
  signing_token: string | null;
  merge_requests_events: boolean;
  note_events: boolean;
  pipeline_events: boolean;
  issues_events: boolean;
}

/** A time as GitLab writes it in webhook payloads ("2015-05-17 18:08:09 UTC", docs.gitlab.com webhook events). */
export const hookTime = (at: Date) => at.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");

const git = (cwd: string, ...args: string[]) =>
  // git's own complaints (a file a commit does not have) are the answer's 404, not the test's output.
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, GIT_AUTHOR_NAME: "Dev", GIT_AUTHOR_EMAIL: "dev@acme.test", GIT_COMMITTER_NAME: "Dev", GIT_COMMITTER_EMAIL: "dev@acme.test" } }).trim();

/** A bare repository with one commit of these files on main: the project's remote. */
function bareRemote(files: Record<string, string>): string {
  const work = mkdtempSync(path.join(tmpdir(), "inkwell-gitlab-work-"));
  git(work, "init", "--quiet", "--initial-branch=main");
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    writeFileSync(path.join(work, file), content);
  }
  git(work, "add", ".");
  git(work, "commit", "--quiet", "-m", "Initial docs");
  const remote = mkdtempSync(path.join(tmpdir(), "inkwell-gitlab-remote-"));
  git(remote, "init", "--quiet", "--bare", "--initial-branch=main");
  git(work, "push", "--quiet", remote, "main");
  return remote;
}

/**
 * What GitLab makes of a pipeline's inputs for Inkwell's component: the project's configuration
 * must declare each input in its `spec:inputs` header (else GitLab refuses the pipeline); each
 * include's `$[[ inputs.x ]]` is interpolated, and the component's job variables
 * (templates/inkwell-agent.yml, `INKWELL_X: $[[ inputs.y ]]`) take the include's inputs.
 */
const COMPONENT = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "..", "templates", "inkwell-agent.yml");

function componentJobVariables(config: string, inputs: Record<string, string>): { variables: Record<string, string> } | { error: string } {
  const [header, body] = parseAllDocuments(config).map((doc) => doc.toJS() as Record<string, any> | null);
  const declared = (header?.spec?.inputs ?? {}) as Record<string, { default?: string }>;
  const unknown = Object.keys(inputs).filter((name) => !(name in declared));
  if (unknown.length > 0) return { error: `unknown input arguments: ${unknown.join(", ")}` };
  const value = (name: string) => inputs[name] ?? declared[name]?.default ?? "";
  const includes = ((body?.include ?? []) as Array<{ component?: string; file?: string; inputs?: Record<string, string> }>).filter((entry) => /inkwell-agent/.test(entry.component ?? entry.file ?? ""));
  const passed = Object.fromEntries(Object.entries(includes[0]?.inputs ?? {}).map(([name, text]) => [name, String(text).replace(/\$\[\[\s*inputs\.([\w-]+)\s*\]\]/g, (_, input: string) => value(input))]));
  const [, jobs] = parseAllDocuments(readFileSync(COMPONENT, "utf8")).map((doc) => doc.toJS() as Record<string, any>);
  const variables: Record<string, string> = {};
  for (const [name, text] of Object.entries((jobs?.["inkwell-agent"]?.variables ?? {}) as Record<string, string>)) {
    const input = /^\$\[\[ inputs\.([\w-]+) \]\]$/.exec(String(text))?.[1];
    if (input && passed[input] !== undefined && passed[input] !== "") variables[name] = passed[input];
  }
  return { variables };
}

export async function startFakeGitLab(options: { projectId?: number; projectPath?: string; files?: Record<string, string>; pipelineVariablesRole?: string } = {}) {
  const projectId = options.projectId ?? 42;
  const projectPath = options.projectPath ?? "acme/handbook/docs";
  const remote = bareRemote(options.files ?? { "docs.json": JSON.stringify({ name: "Docs", navigation: [{ group: "Start", pages: ["index"] }] }, null, 2), "index.mdx": "---\ntitle: Home\n---\n\nWelcome.\n" });
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const other = await generateKeyPair("RS256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "gitlab-ci-key", alg: "RS256", use: "sig" };
  let url = "";

  const users = new Map<number, FakeGitLabUser>([[GITLAB_BOT.id, { ...GITLAB_BOT, accessLevel: 40 }]]);
  const hooks: FakeHook[] = [];
  /** Other projects on the instance (a linked source project): their merge requests' diffs, and the hooks registered on them. */
  const sourceProjects = new Map<number, { id: number; path: string; defaultBranch: string; diffs: Map<number, Record<string, unknown>[]>; hooks: FakeHook[] }>();
  const pipelines: { id: number; ref: string; sha: string; variables: Record<string, string>; inputs?: Record<string, string>; source: "api" }[] = [];
  /** The project's CI/CD settings: GitLab.com creates projects where no one may set pipeline variables (17.7+). */
  const settings = { pipelineVariablesRole: options.pipelineVariablesRole ?? "developer" };
  /** The project's own CI pipelines (not Inkwell's): the repository's checks on a merge request. */
  const ciPipelines: FakeCiPipeline[] = [];
  /** Inkwell's pipelines' statuses where a test or a cancel set one (else `created`), and the pipelines cancelled through the API. */
  const pipelineStatuses = new Map<number, string>();
  const cancelledPipelines: number[] = [];
  const mergeRequests: FakeMergeRequest[] = [];
  const notes: { id: number; mrIid: number; body: string; authorId: number }[] = [];
  const awards: { mrIid?: number; issueIid?: number; noteId: number; name: string }[] = [];
  const issueNotes: { id: number; issueIid: number; body: string; authorId: number }[] = [];
  /** Every API request: method and path (no query). */
  const requests: string[] = [];
  const project = () => ({
    id: projectId,
    name: projectPath.split("/").at(-1),
    path: projectPath.split("/").at(-1),
    path_with_namespace: projectPath,
    name_with_namespace: projectPath.split("/").join(" / "),
    default_branch: "main",
    web_url: `${url}/${projectPath}`,
    http_url_to_repo: `${url}/${projectPath}.git`,
    archived: false,
    visibility: "private",
    ci_config_path: "",
    ci_pipeline_variables_minimum_override_role: settings.pipelineVariablesRole,
    ci_push_repository_for_job_token_allowed: true,
  });
  const webhookProject = () => ({
    id: projectId,
    name: project().name,
    web_url: project().web_url,
    path_with_namespace: projectPath,
    default_branch: "main",
    git_http_url: project().http_url_to_repo,
    namespace: projectPath.split("/").slice(0, -1).join("/"),
    visibility_level: 0,
  });
  let nextId = 1000;

  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" }).end(body === undefined ? "" : JSON.stringify(body));
  };
  const readBody = async (req: IncomingMessage): Promise<Record<string, any>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString("utf8");
    if (!text) return {};
    return (req.headers["content-type"] ?? "").includes("json") ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
  };
  /** A merge request's changes as GitLab's diffs API lists them (new_path, old_path, the flags, the unified diff). */
  const diffsOf = (mr: FakeMergeRequest) =>
    git(remote, "diff", "--name-status", "-M", mr.diff_refs.base_sha, mr.diff_refs.head_sha)
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [status, first, second] = line.split("\t") as [string, string, string | undefined];
        const newPath = second ?? first;
        return {
          old_path: first,
          new_path: newPath,
          a_mode: "100644",
          b_mode: status === "D" ? "0" : "100644",
          new_file: status === "A",
          renamed_file: status.startsWith("R"),
          deleted_file: status === "D",
          generated_file: false,
          diff: git(remote, "diff", mr.diff_refs.base_sha, mr.diff_refs.head_sha, "--", newPath).split("\n").slice(4).join("\n"),
        };
      });

  /** A merge request opened now from `source_branch`: its diff is from the target's commit then to the branch's head. */
  const openMergeRequest = (fields: Pick<FakeMergeRequest, "title" | "description" | "source_branch" | "target_branch" | "labels" | "reviewer_ids" | "draft">): FakeMergeRequest => {
    const now = new Date().toISOString();
    const iid = mergeRequests.length + 1;
    const mr: FakeMergeRequest = {
      ...fields,
      id: ++nextId,
      iid,
      state: "opened",
      web_url: `${url}/${projectPath}/-/merge_requests/${iid}`,
      merged_at: null,
      created_at: now,
      updated_at: now,
      diff_refs: { base_sha: git(remote, "rev-parse", fields.target_branch), head_sha: git(remote, "rev-parse", fields.source_branch) },
      merge_commit_sha: null,
    };
    mergeRequests.push(mr);
    return mr;
  };

  const branchExists = (branch: string) => {
    try {
      git(remote, "rev-parse", "--verify", "--quiet", `refs/heads/${branch}`);
      return true;
    } catch {
      return false;
    }
  };

  /** A project hook as GitLab's hooks API takes it (JSON booleans, or "true" in a form body). */
  const hookFrom = (body: Record<string, any>): FakeHook => {
    const on = (event: string) => body[event] === true || body[event] === "true";
    return {
      id: ++nextId,
      url: String(body.url),
      token: String(body.token ?? ""),
      signing_token: body.signing_token ? String(body.signing_token) : null,
      merge_requests_events: on("merge_requests_events"),
      note_events: on("note_events"),
      pipeline_events: on("pipeline_events"),
      issues_events: on("issues_events"),
    };
  };

  /** A linked source project's API, as far as linking it and reading a merge's changes need: the project, its hooks, a merge request's diffs. */
  async function sourceApi(req: IncomingMessage, res: ServerResponse, source: NonNullable<ReturnType<typeof sourceProjects.get>>, method: string, rest: string): Promise<void> {
    if (method === "GET" && rest === "") {
      return send(res, 200, { id: source.id, path_with_namespace: source.path, default_branch: source.defaultBranch, web_url: `${url}/${source.path}`, archived: false });
    }
    if (method === "GET" && rest === "/hooks") return send(res, 200, source.hooks.map((h) => ({ id: h.id, url: h.url, project_id: source.id, merge_requests_events: h.merge_requests_events })));
    if (method === "POST" && rest === "/hooks") {
      const hook = hookFrom(await readBody(req));
      source.hooks.push(hook);
      return send(res, 201, { id: hook.id, url: hook.url, project_id: source.id, merge_requests_events: hook.merge_requests_events });
    }
    const hookId = /^\/hooks\/(\d+)$/.exec(rest);
    if (method === "DELETE" && hookId) {
      const at = source.hooks.findIndex((h) => h.id === Number(hookId[1]));
      if (at < 0) return send(res, 404, { message: "404 Not found" });
      source.hooks.splice(at, 1);
      return send(res, 204);
    }
    const diffs = /^\/merge_requests\/(\d+)\/diffs$/.exec(rest);
    if (method === "GET" && diffs) return send(res, 200, source.diffs.get(Number(diffs[1])) ?? []);
    return send(res, 404, { message: "404 Not found" });
  }

  async function api(req: IncomingMessage, res: ServerResponse, pathname: string, query: URLSearchParams): Promise<void> {
    const token = req.headers["private-token"] ?? /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (token !== GITLAB_TOKEN) return send(res, 401, { message: "401 Unauthorized" });
    const method = req.method ?? "GET";
    const projectRef = `(?:${projectId}|${encodeURIComponent(projectPath).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")})`;
    const route = (m: string, pattern: string) => (method === m ? new RegExp(`^${pattern.replace(":project", projectRef)}$`).exec(pathname) : null);
    let match: RegExpExecArray | null;
    if ((match = route("GET", "/projects/:project"))) return send(res, 200, project());
    const other = /^\/projects\/([^/]+)(\/.*)?$/.exec(pathname);
    const source = other ? [...sourceProjects.values()].find((p) => String(p.id) === other[1] || encodeURIComponent(p.path) === other[1]) : undefined;
    if (source && other) return sourceApi(req, res, source, method, other[2] ?? "");
    if (/^\/projects\/[^/]+(\/|$)/.test(pathname) && !new RegExp(`^/projects/${projectRef}(/|$)`).test(pathname)) return send(res, 404, { message: "404 Project Not Found" });
    if ((match = route("GET", "/user"))) return send(res, 200, { id: GITLAB_BOT.id, username: GITLAB_BOT.username, name: GITLAB_BOT.name, bot: true, state: "active" });
    if ((match = route("GET", "/users"))) {
      const username = query.get("username");
      return send(res, 200, [...users.values()].filter((u) => u.username === username).map((u) => ({ id: u.id, username: u.username, name: u.name, state: "active" })));
    }
    if ((match = route("GET", "/users/(\\d+)"))) {
      const user = users.get(Number(match[1]));
      return user ? send(res, 200, { id: user.id, username: user.username, name: user.name, bot: user.bot, state: "active" }) : send(res, 404, { message: "404 User Not Found" });
    }
    if ((match = route("GET", "/projects/:project/members/all/(\\d+)"))) {
      const user = users.get(Number(match[1]));
      if (!user || user.accessLevel === undefined) return send(res, 404, { message: "404 Not found" });
      return send(res, 200, { id: user.id, username: user.username, name: user.name, state: "active", access_level: user.accessLevel });
    }
    if ((match = route("POST", "/projects/:project/hooks"))) {
      const hook = hookFrom(await readBody(req));
      hooks.push(hook);
      return send(res, 201, { id: hook.id, url: hook.url, project_id: projectId, merge_requests_events: hook.merge_requests_events, note_events: hook.note_events, token_present: hook.token !== "", signing_token_present: hook.signing_token !== null });
    }
    if ((match = route("DELETE", "/projects/:project/hooks/(\\d+)"))) {
      const at = hooks.findIndex((h) => h.id === Number(match![1]));
      if (at < 0) return send(res, 404, { message: "404 Not found" });
      hooks.splice(at, 1);
      return send(res, 204);
    }
    if ((match = route("POST", "/projects/:project/pipeline"))) {
      const body = await readBody(req);
      const given = (body.variables ?? []) as { key: string; value: string }[];
      if (!branchExists(String(body.ref))) return send(res, 400, { message: { base: ["Reference not found"] } });
      // The API's own answer when the project's minimum role for pipeline variables is above the token's.
      if (given.length > 0 && settings.pipelineVariablesRole === "no_one_allowed") return send(res, 400, { message: { base: ["Insufficient permissions to set pipeline variables"] } });
      let variables = Object.fromEntries(given.map((v) => [v.key, v.value]));
      const inputs = body.inputs as Record<string, string> | undefined;
      if (inputs) {
        const job = componentJobVariables(git(remote, "show", `${String(body.ref)}:.gitlab-ci.yml`), inputs);
        if ("error" in job) return send(res, 400, { message: { base: [job.error] } });
        variables = { ...job.variables, ...variables };
      }
      const pipeline = { id: ++nextId, ref: String(body.ref), sha: git(remote, "rev-parse", String(body.ref)), variables, ...(inputs ? { inputs } : {}), source: "api" as const };
      pipelines.push(pipeline);
      return send(res, 201, { id: pipeline.id, iid: pipelines.length, project_id: projectId, ref: pipeline.ref, status: "created", source: "api", web_url: `${url}/${projectPath}/-/pipelines/${pipeline.id}` });
    }
    if ((match = route("GET", "/projects/:project/pipelines"))) {
      const sha = query.get("sha");
      const all = [
        ...ciPipelines.map((p) => ({ id: p.id, sha: p.sha, ref: p.ref, status: p.status, source: p.source })),
        ...pipelines.map((p) => ({ id: p.id, sha: p.sha, ref: p.ref, status: "success", source: p.source })),
      ];
      const listed = all.filter((p) => !sha || p.sha === sha).sort((a, b) => b.id - a.id);
      return send(res, 200, listed.map((p) => ({ ...p, iid: p.id, project_id: projectId, web_url: `${url}/${projectPath}/-/pipelines/${p.id}`, created_at: "2026-11-27T21:00:00.000Z" })));
    }
    if ((match = route("POST", "/projects/:project/pipelines/(\\d+)/cancel"))) {
      // docs.gitlab.com/api/pipelines#cancel-a-pipelines-jobs: 201 with the pipeline; one that has ended keeps its status.
      const pipeline = pipelines.find((p) => p.id === Number(match![1]));
      if (!pipeline) return send(res, 404, { message: "404 Not found" });
      const before = pipelineStatuses.get(pipeline.id) ?? "created";
      const status = ["success", "failed", "canceled", "skipped"].includes(before) ? before : "canceled";
      pipelineStatuses.set(pipeline.id, status);
      cancelledPipelines.push(pipeline.id);
      const at = "2026-11-27T21:00:00.000Z";
      return send(res, 201, {
        id: pipeline.id, iid: pipelines.indexOf(pipeline) + 1, project_id: projectId, sha: pipeline.sha, ref: pipeline.ref, status, source: "api",
        created_at: at, updated_at: at, web_url: `${url}/${projectPath}/-/pipelines/${pipeline.id}`, before_sha: "0000000000000000000000000000000000000000", tag: false,
        yaml_errors: null, user: { id: GITLAB_BOT.id, username: GITLAB_BOT.username, name: GITLAB_BOT.name, state: "active" }, started_at: null, finished_at: status === "canceled" ? at : null,
        committed_at: null, duration: null, queued_duration: null, coverage: null, detailed_status: { text: status, label: status, group: status },
      });
    }
    if ((match = route("GET", "/projects/:project/pipelines/(\\d+)/jobs"))) {
      const pipeline = ciPipelines.find((p) => p.id === Number(match![1]));
      if (!pipeline) return send(res, 200, []);
      const scopes = [...query.getAll("scope"), ...query.getAll("scope[]")];
      const jobs = pipeline.jobs.filter((job) => scopes.length === 0 || scopes.includes(job.status));
      return send(res, 200, jobs.map((job) => ({ id: job.id, name: job.name, stage: "test", status: job.status, allow_failure: job.allowFailure, ref: pipeline.ref, web_url: `${url}/${projectPath}/-/jobs/${job.id}`, pipeline: { id: pipeline.id, sha: pipeline.sha, ref: pipeline.ref, status: pipeline.status } })));
    }
    if ((match = route("GET", "/projects/:project/jobs/(\\d+)/trace"))) {
      const job = ciPipelines.flatMap((p) => p.jobs).find((j) => j.id === Number(match![1]));
      if (!job) return send(res, 404, { message: "404 Job Not Found" });
      res.writeHead(200, { "Content-Type": "text/plain" }).end(job.trace);
      return;
    }
    if ((match = route("POST", "/projects/:project/merge_requests"))) {
      const body = await readBody(req);
      const source = String(body.source_branch);
      if (!branchExists(source)) return send(res, 422, { message: ["Source branch does not exist"] });
      if (mergeRequests.some((mr) => mr.source_branch === source && mr.state === "opened")) return send(res, 409, { message: [`Another open merge request already exists for this source branch`] });
      const title = String(body.title);
      const mr = openMergeRequest({
        title,
        description: String(body.description ?? ""),
        source_branch: source,
        target_branch: String(body.target_branch),
        labels: body.labels ? String(body.labels).split(",") : [],
        reviewer_ids: ((body.reviewer_ids ?? []) as (number | string)[]).map(Number),
        draft: /^draft:/i.test(title),
      });
      return send(res, 201, mr);
    }
    if ((match = route("PUT", "/projects/:project/merge_requests/(\\d+)"))) {
      const mr = mergeRequests.find((m) => m.iid === Number(match![1]));
      if (!mr) return send(res, 404, { message: "404 Not found" });
      const body = await readBody(req);
      if (body.title !== undefined) {
        mr.title = String(body.title);
        mr.draft = /^draft:/i.test(mr.title);
      }
      if (body.description !== undefined) mr.description = String(body.description);
      mr.updated_at = new Date().toISOString();
      return send(res, 200, mr);
    }
    if ((match = route("GET", "/projects/:project/merge_requests/(\\d+)/diffs"))) {
      const mr = mergeRequests.find((m) => m.iid === Number(match![1]));
      return mr ? send(res, 200, diffsOf(mr)) : send(res, 404, { message: "404 Not found" });
    }
    if ((match = route("GET", "/projects/:project/repository/files/([^/]+)/raw"))) {
      try {
        const text = git(remote, "show", `${query.get("ref") ?? "main"}:${decodeURIComponent(match[1]!)}`);
        res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" }).end(`${text}\n`);
        return;
      } catch {
        return send(res, 404, { message: "404 File Not Found" });
      }
    }
    if ((match = route("GET", "/projects/:project/merge_requests/(\\d+)"))) {
      const mr = mergeRequests.find((m) => m.iid === Number(match![1]));
      return mr ? send(res, 200, mr) : send(res, 404, { message: "404 Not found" });
    }
    if ((match = route("POST", "/projects/:project/merge_requests/(\\d+)/notes"))) {
      const body = await readBody(req);
      const note = { id: ++nextId, mrIid: Number(match[1]), body: String(body.body), authorId: GITLAB_BOT.id };
      notes.push(note);
      return send(res, 201, { id: note.id, body: note.body, author: { id: GITLAB_BOT.id, username: GITLAB_BOT.username }, system: false, noteable_type: "MergeRequest", noteable_iid: note.mrIid });
    }
    if ((match = route("PUT", "/projects/:project/merge_requests/(\\d+)/notes/(\\d+)"))) {
      const note = notes.find((n) => n.id === Number(match![2]) && n.mrIid === Number(match![1]));
      if (!note) return send(res, 404, { message: "404 Note Not Found" });
      note.body = String((await readBody(req)).body);
      return send(res, 200, { id: note.id, body: note.body, author: { id: GITLAB_BOT.id, username: GITLAB_BOT.username }, system: false });
    }
    if ((match = route("POST", "/projects/:project/merge_requests/(\\d+)/notes/(\\d+)/award_emoji"))) {
      const body = await readBody(req);
      awards.push({ mrIid: Number(match[1]), noteId: Number(match[2]), name: String(body.name) });
      return send(res, 201, { id: ++nextId, name: body.name, awardable_id: Number(match[2]), awardable_type: "Note" });
    }
    if ((match = route("POST", "/projects/:project/issues/(\\d+)/notes"))) {
      const body = await readBody(req);
      const note = { id: ++nextId, issueIid: Number(match[1]), body: String(body.body), authorId: GITLAB_BOT.id };
      issueNotes.push(note);
      return send(res, 201, { id: note.id, body: note.body, author: { id: GITLAB_BOT.id, username: GITLAB_BOT.username }, system: false, noteable_type: "Issue", noteable_iid: note.issueIid });
    }
    if ((match = route("POST", "/projects/:project/issues/(\\d+)/notes/(\\d+)/award_emoji"))) {
      const body = await readBody(req);
      awards.push({ issueIid: Number(match[1]), noteId: Number(match[2]), name: String(body.name) });
      return send(res, 201, { id: ++nextId, name: body.name, awardable_id: Number(match[2]), awardable_type: "Note" });
    }
    send(res, 404, { message: `404 ${method} ${pathname} is not faked` });
  }

  const server: Server = createServer((req, res) => {
    const parsed = new URL(req.url ?? "/", "http://localhost");
    if (parsed.pathname === "/.well-known/openid-configuration") {
      return send(res, 200, { issuer: url, jwks_uri: `${url}/oauth/discovery/keys`, id_token_signing_alg_values_supported: ["RS256"], response_types_supported: ["code"], subject_types_supported: ["public"] });
    }
    if (parsed.pathname === "/oauth/discovery/keys") return send(res, 200, { keys: [jwk] });
    if (parsed.pathname.startsWith("/api/v4/")) {
      const apiPath = parsed.pathname.slice("/api/v4".length);
      requests.push(`${req.method} ${apiPath}`);
      api(req, res, apiPath, parsed.searchParams).catch((error: unknown) => send(res, 500, { message: String(error) }));
      return;
    }
    send(res, 404, { message: "404 Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  /** The webhook payloads GitLab sends (docs.gitlab.com/user/project/integrations/webhook_events), trimmed to the fields that matter plus their neighbours. */
  const payloads = {
    mergeRequest(mr: FakeMergeRequest, action: "open" | "update" | "close" | "reopen" | "merge", by: FakeGitLabUser = [...users.values()][0]!) {
      return {
        object_kind: "merge_request",
        event_type: "merge_request",
        user: { id: by.id, name: by.name, username: by.username, avatar_url: null, email: "[REDACTED]" },
        project: webhookProject(),
        object_attributes: {
          id: mr.id,
          iid: mr.iid,
          title: mr.title,
          description: mr.description,
          source_branch: mr.source_branch,
          target_branch: mr.target_branch,
          source_project_id: projectId,
          target_project_id: projectId,
          state: mr.state,
          draft: mr.draft,
          merge_status: "can_be_merged",
          url: mr.web_url,
          created_at: hookTime(new Date(mr.created_at)),
          updated_at: hookTime(new Date(mr.updated_at)),
          merge_commit_sha: mr.merge_commit_sha,
          last_commit: { id: mr.diff_refs.head_sha, message: mr.title, timestamp: new Date(mr.updated_at).toISOString(), url: `${url}/${projectPath}/-/commit/${mr.diff_refs.head_sha}` },
          action,
        },
        labels: mr.labels.map((title, i) => ({ id: i + 1, title })),
        changes: {},
        repository: { name: project().name, url: project().http_url_to_repo, homepage: project().web_url },
      };
    },
    note(mr: FakeMergeRequest, author: FakeGitLabUser, note: string, extra: { type?: "DiffNote" | "DiscussionNote"; position?: Record<string, unknown>; system?: boolean; writtenAt?: string } = {}) {
      const id = ++nextId;
      return {
        object_kind: "note",
        event_type: "note",
        user: { id: author.id, name: author.name, username: author.username, avatar_url: null, email: "[REDACTED]" },
        project_id: projectId,
        project: webhookProject(),
        object_attributes: {
          id,
          note,
          noteable_type: "MergeRequest",
          author_id: author.id,
          project_id: projectId,
          noteable_id: mr.id,
          system: extra.system ?? false,
          type: extra.type ?? null,
          position: extra.position ?? null,
          discussion_id: randomUUID().replace(/-/g, ""),
          action: "create",
          url: `${mr.web_url}#note_${id}`,
          created_at: extra.writtenAt ?? hookTime(new Date()),
          updated_at: hookTime(new Date()),
        },
        merge_request: { id: mr.id, iid: mr.iid, title: mr.title, source_branch: mr.source_branch, target_branch: mr.target_branch, state: mr.state, url: mr.web_url },
        repository: { name: project().name, url: project().http_url_to_repo, homepage: project().web_url },
      };
    },
  };

  /**
   * A pipeline event (docs.gitlab.com/user/project/integrations/webhook_events#pipeline-events): GitLab
   * sends one on each status change. `variables` holds only those a user typed in the UI, so it is
   * empty for a pipeline started through the API (gitlab-org/gitlab#29539); `source` is "api" for those.
   */
  const pipelinePayload = (pipeline: { id: number; ref: string }, status: "pending" | "running" | "success" | "failed" | "canceled" | "skipped", source = "api", by: Pick<FakeGitLabUser, "id" | "name" | "username"> = GITLAB_BOT) => ({
    object_kind: "pipeline",
    object_attributes: {
      id: pipeline.id,
      iid: pipelines.findIndex((p) => p.id === pipeline.id) + 1,
      name: null,
      ref: pipeline.ref,
      tag: false,
      sha: "bcbb5ec396a2c0f828686f14fac9b80b780504f2",
      before_sha: "0000000000000000000000000000000000000000",
      source,
      status,
      detailed_status: status,
      stages: ["docs"],
      created_at: "2026-11-27 21:00:00 UTC",
      finished_at: ["pending", "running"].includes(status) ? null : "2026-11-27 21:01:00 UTC",
      duration: ["pending", "running"].includes(status) ? null : 60,
      queued_duration: 2,
      variables: [],
      url: `${url}/${projectPath}/-/pipelines/${pipeline.id}`,
    },
    merge_request: null,
    user: { id: by.id, name: by.name, username: by.username, avatar_url: null, email: "[REDACTED]" },
    project: { ...webhookProject(), path_with_namespace: projectPath },
    commit: { id: "bcbb5ec396a2c0f828686f14fac9b80b780504f2", message: "docs", title: "docs", timestamp: "2026-11-27T21:00:00+00:00" },
    source_pipeline: null,
    builds: [
      {
        id: pipeline.id * 10,
        stage: "docs",
        name: "inkwell",
        status: status === "skipped" ? "skipped" : status === "canceled" ? "canceled" : status === "pending" ? "pending" : status,
        created_at: "2026-11-27 21:00:00 UTC",
        started_at: null,
        finished_at: null,
        duration: null,
        queued_duration: null,
        failure_reason: status === "failed" ? "script_failure" : null,
        when: "on_success",
        manual: false,
        allow_failure: false,
        user: { id: by.id, name: by.name, username: by.username, avatar_url: null, email: "[REDACTED]" },
        runner: null,
        artifacts_file: { filename: null, size: null },
        environment: null,
      },
    ],
  });

  /**
   * The project's own CI ran on a commit (a push to the branch, or the merge request's pipeline):
   * recorded for the pipelines API, and its Pipeline Hook payload as GitLab sends it when it ends.
   */
  const runOwnCi = (fields: Omit<FakeCiPipeline, "id" | "jobs"> & { jobs: Omit<FakeCiPipeline["jobs"][number], "id">[] }, mr: FakeMergeRequest | null = null) => {
    const pipeline: FakeCiPipeline = { ...fields, id: ++nextId, jobs: fields.jobs.map((job) => ({ ...job, id: ++nextId })) };
    ciPipelines.push(pipeline);
    const payload = {
      object_kind: "pipeline",
      object_attributes: {
        id: pipeline.id,
        iid: pipeline.id,
        ref: pipeline.ref,
        tag: false,
        sha: pipeline.sha,
        before_sha: "0000000000000000000000000000000000000000",
        source: pipeline.source,
        status: pipeline.status,
        detailed_status: pipeline.status,
        stages: ["test"],
        created_at: "2026-11-27 21:00:00 UTC",
        finished_at: "2026-11-27 21:02:00 UTC",
        duration: 120,
        variables: [],
        url: `${url}/${projectPath}/-/pipelines/${pipeline.id}`,
      },
      merge_request: mr
        ? { id: mr.id, iid: mr.iid, title: mr.title, source_branch: mr.source_branch, source_project_id: projectId, target_branch: mr.target_branch, target_project_id: projectId, state: mr.state, merge_status: "can_be_merged", detailed_merge_status: "mergeable", url: mr.web_url }
        : null,
      user: { id: GITLAB_BOT.id, name: GITLAB_BOT.name, username: GITLAB_BOT.username, avatar_url: null, email: "[REDACTED]" },
      project: { ...webhookProject(), path_with_namespace: projectPath },
      commit: { id: pipeline.sha, message: "Docs", title: "Docs", timestamp: "2026-11-27T21:00:00+00:00" },
      source_pipeline: null,
      builds: pipeline.jobs.map((job) => ({ id: job.id, stage: "test", name: job.name, status: job.status, allow_failure: job.allowFailure, failure_reason: job.status === "failed" ? "script_failure" : null, when: "on_success", manual: false })),
    };
    return { pipeline, payload };
  };

  /** Issue and issue-note payloads, as GitLab sends them. */
  const issuePayloads = {
    issue(issue: { iid: number; title: string; description: string }, by: FakeGitLabUser, change: { action: "open" | "update"; labels: string[]; previousLabels?: string[] }) {
      const label = (title: string, i: number) => ({ id: i + 1, title, color: "#428BCA", project_id: projectId, type: "ProjectLabel" });
      return {
        object_kind: "issue",
        event_type: "issue",
        user: { id: by.id, name: by.name, username: by.username, avatar_url: null, email: "[REDACTED]" },
        project: webhookProject(),
        object_attributes: {
          id: issue.iid + 5000,
          iid: issue.iid,
          title: issue.title,
          description: issue.description,
          state: "opened",
          action: change.action,
          url: `${project().web_url}/-/issues/${issue.iid}`,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        },
        labels: change.labels.map(label),
        changes: change.previousLabels ? { labels: { previous: change.previousLabels.map(label), current: change.labels.map(label) } } : {},
        repository: { name: project().name, url: project().http_url_to_repo, homepage: project().web_url },
      };
    },
    issueNote(issue: { iid: number; title: string; description: string }, author: FakeGitLabUser, note: string) {
      const id = ++nextId;
      return {
        object_kind: "note",
        event_type: "note",
        user: { id: author.id, name: author.name, username: author.username, avatar_url: null, email: "[REDACTED]" },
        project_id: projectId,
        project: webhookProject(),
        object_attributes: { id, note, noteable_type: "Issue", author_id: author.id, project_id: projectId, noteable_id: issue.iid + 5000, system: false, type: null, action: "create", url: `${project().web_url}/-/issues/${issue.iid}#note_${id}`, created_at: hookTime(new Date()), updated_at: hookTime(new Date()) },
        issue: { id: issue.iid + 5000, iid: issue.iid, title: issue.title, description: issue.description, state: "opened" },
        repository: { name: project().name, url: project().http_url_to_repo, homepage: project().web_url },
      };
    },
  };

  return {
    url,
    projectId,
    /** The project's CI/CD settings, as a test changes them (`pipelineVariablesRole`). */
    settings,
    issueNotes,
    issuePayloads,
    projectPath,
    /** The project's repository: push here with the job token in tests. */
    remote,
    users,
    hooks,
    pipelines,
    pipelinePayload,
    ciPipelines,
    /** Set an Inkwell pipeline's status (e.g. `success`: it ended before a cancel). */
    pipelineStatuses,
    /** The pipelines cancelled through the API, in order. */
    cancelledPipelines,
    runOwnCi,
    mergeRequests,
    notes,
    awards,
    requests,
    payloads,
    sourceProjects,
    /**
     * A person's merge request on the docs project: a branch from main with these files written
     * (null removes one), pushed, and opened as the API would.
     */
    openChange(branch: string, files: Record<string, string | null>, title: string): FakeMergeRequest {
      const work = mkdtempSync(path.join(tmpdir(), "inkwell-gitlab-change-"));
      try {
        git(work, "clone", "--quiet", remote, ".");
        git(work, "checkout", "--quiet", "-b", branch);
        for (const [file, content] of Object.entries(files)) {
          if (content === null) git(work, "rm", "--quiet", file);
          else {
            mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
            writeFileSync(path.join(work, file), content);
            git(work, "add", file);
          }
        }
        git(work, "commit", "--quiet", "-m", title);
        git(work, "push", "--quiet", "origin", branch);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
      return openMergeRequest({ title, description: "", source_branch: branch, target_branch: "main", labels: [], reviewer_ids: [], draft: false });
    },
    /** Merges it into its target branch with a merge commit, as GitLab's default merge method does, at `at`. */
    merge(mr: FakeMergeRequest, at: string) {
      const work = mkdtempSync(path.join(tmpdir(), "inkwell-gitlab-merge-"));
      try {
        git(work, "clone", "--quiet", "--branch", mr.target_branch, remote, ".");
        git(work, "merge", "--quiet", "--no-ff", "-m", `Merge branch '${mr.source_branch}' into '${mr.target_branch}'`, `origin/${mr.source_branch}`);
        git(work, "push", "--quiet", "origin", mr.target_branch);
        mr.merge_commit_sha = git(work, "rev-parse", "HEAD");
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
      mr.state = "merged";
      mr.merged_at = at;
      mr.updated_at = at;
    },
    /** Another project on the instance, for a source automation to link. */
    addSourceProject(id: number, sourcePath: string) {
      const added = { id, path: sourcePath, defaultBranch: "main", diffs: new Map<number, Record<string, unknown>[]>(), hooks: [] as FakeHook[] };
      sourceProjects.set(id, added);
      return added;
    },
    /**
     * GitLab's Merge Request Hook for a merge in a source project (docs.gitlab.com, webhook events):
     * `user` merged it, `author` wrote it; the diffs are what the API answers for it.
     */
    sourceMerge(sourceId: number, mr: { iid: number; title: string; description: string; author: FakeGitLabUser; labels?: string[]; targetBranch?: string; diffs: Record<string, unknown>[] }, by: FakeGitLabUser) {
      const source = sourceProjects.get(sourceId)!;
      source.diffs.set(mr.iid, mr.diffs);
      return {
        object_kind: "merge_request",
        event_type: "merge_request",
        user: { id: by.id, name: by.name, username: by.username, avatar_url: null, email: "[REDACTED]" },
        project: { id: source.id, name: source.path.split("/").at(-1), web_url: `${url}/${source.path}`, path_with_namespace: source.path, default_branch: source.defaultBranch, namespace: source.path.split("/").slice(0, -1).join("/") },
        object_attributes: {
          id: 90_000 + mr.iid,
          iid: mr.iid,
          title: mr.title,
          description: mr.description,
          source_branch: `feature-${mr.iid}`,
          target_branch: mr.targetBranch ?? source.defaultBranch,
          source_project_id: source.id,
          target_project_id: source.id,
          author_id: mr.author.id,
          state: "merged",
          merge_commit_sha: "d".repeat(40),
          url: `${url}/${source.path}/-/merge_requests/${mr.iid}`,
          action: "merge",
        },
        labels: (mr.labels ?? []).map((title, i) => ({ id: i + 1, title })),
        changes: {},
      };
    },
    addUser(user: Omit<FakeGitLabUser, "id"> & { id?: number }): FakeGitLabUser {
      const added = { ...user, id: user.id ?? ++nextId };
      users.set(added.id, added);
      return added;
    },
    /** A pushed branch on the remote (what the runner's push with CI_JOB_TOKEN does). */
    pushBranch(branch: string, files: Record<string, string>) {
      const work = mkdtempSync(path.join(tmpdir(), "inkwell-gitlab-push-"));
      git(work, "clone", "--quiet", remote, ".");
      git(work, "checkout", "--quiet", "-B", branch);
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
        writeFileSync(path.join(work, file), content);
      }
      git(work, "add", ".");
      git(work, "commit", "--quiet", "-m", `Change on ${branch}`);
      git(work, "push", "--quiet", "--force", "origin", branch);
    },
    /** A CI ID token of a job in this project's pipeline; override claims or options to forge a wrong one. */
    async idToken(claims: Record<string, unknown>, options: { audience: string; issuer?: string; expiresIn?: string | number; wrongKey?: boolean; issuedAt?: number }) {
      const iat = options.issuedAt ?? Math.floor(Date.now() / 1000) - 30;
      return new SignJWT({
        namespace_id: "7",
        namespace_path: projectPath.split("/").slice(0, -1).join("/"),
        project_id: String(projectId),
        project_path: projectPath,
        user_id: "1",
        user_login: "root",
        user_email: "root@acme.test",
        user_access_level: "maintainer",
        pipeline_id: String(pipelines.at(-1)?.id ?? 1),
        pipeline_source: "api",
        job_id: "5001",
        ref: "main",
        ref_type: "branch",
        ref_path: "refs/heads/main",
        ref_protected: "true",
        runner_id: 1,
        runner_environment: "self-hosted",
        sha: "0".repeat(40),
        project_visibility: "private",
        ci_config_ref_uri: `${new URL(url).host}/${projectPath}//.gitlab-ci.yml@refs/heads/main`,
        ...claims,
      })
        .setProtectedHeader({ alg: "RS256", kid: "gitlab-ci-key", typ: "JWT" })
        .setIssuer(options.issuer ?? url)
        .setSubject(`project_path:${projectPath}:ref_type:branch:ref:main`)
        .setAudience(options.audience)
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setNotBefore(iat - 5)
        .setExpirationTime(options.expiresIn ?? iat + 3600)
        .sign(options.wrongKey ? other.privateKey : privateKey);
    },
    /**
     * Sends a webhook delivery to the registered hook as GitLab does: X-Gitlab-Event, X-Gitlab-Token,
     * X-Gitlab-Event-UUID, Idempotency-Key and, when the hook has a signing token, webhook-id,
     * webhook-timestamp and webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body>).
     */
    async deliver(event: "Merge Request Hook" | "Note Hook" | "Pipeline Hook" | "Issue Hook", payload: unknown, tamper: { token?: string; signature?: string; body?: string; to?: string } = {}) {
      const hook = hooks[0];
      if (!hook && !tamper.to) throw new Error("no webhook registered");
      const body = tamper.body ?? JSON.stringify(payload);
      const id = randomUUID();
      const headers: Record<string, string> = {
        "Content-Type": "application/json",
        "User-Agent": "GitLab/18.6.0",
        "X-Gitlab-Event": event,
        "X-Gitlab-Instance": url,
        "X-Gitlab-Webhook-UUID": randomUUID(),
        "X-Gitlab-Event-UUID": id,
        "Idempotency-Key": id,
        "X-Gitlab-Token": tamper.token ?? hook?.token ?? "",
      };
      if (hook?.signing_token) {
        const timestamp = String(Math.floor(Date.now() / 1000));
        const key = Buffer.from(hook.signing_token.replace(/^whsec_/, ""), "base64");
        headers["webhook-id"] = id;
        headers["webhook-timestamp"] = timestamp;
        headers["webhook-signature"] = tamper.signature ?? `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${tamper.body ?? JSON.stringify(payload)}`).digest("base64")}`;
      }
      const response = await fetch(tamper.to ?? hook!.url, { method: "POST", headers, body });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as { error?: string }) : {} };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeGitLab = Awaited<ReturnType<typeof startFakeGitLab>>;
