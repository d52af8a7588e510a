/**
 * Versioned schema. Append new migrations; never edit one that has shipped.
 * One dialect for PGlite and PostgreSQL.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: "projects, keys, jobs, messages, events, dispatch outbox",
    sql: `
CREATE TABLE projects (
  id text PRIMARY KEY,
  name text,
  repository text NOT NULL,
  repo_full_name text NOT NULL,
  base_ref text,
  model text NOT NULL,
  rate_limit_per_hour integer,
  installation_id bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX projects_repo_full_name ON projects (repo_full_name);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id),
  name text,
  prefix text NOT NULL,
  secret_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_keys_secret_hash ON api_keys (secret_hash);
CREATE INDEX api_keys_project ON api_keys (project_id, created_at);

CREATE TABLE jobs (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id),
  status text NOT NULL CHECK (status IN ('active', 'completed', 'failed', 'archived')),
  repository text NOT NULL,
  branch text NOT NULL,
  base_ref text,
  model text NOT NULL,
  run_attempt integer NOT NULL DEFAULT 1,
  pr_number integer,
  pr_url text,
  error text,
  idempotency_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz
);
CREATE UNIQUE INDEX jobs_idempotency ON jobs (project_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX jobs_project_recent ON jobs (project_id, created_at DESC, id DESC);
CREATE INDEX jobs_project_status_recent ON jobs (project_id, status, created_at DESC, id DESC);

CREATE TABLE job_messages (
  job_id text NOT NULL REFERENCES jobs (id),
  seq integer NOT NULL,
  project_id text NOT NULL,
  prompt text NOT NULL,
  source text NOT NULL CHECK (source IN ('api', 'comment')),
  author text,
  run_attempt integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, seq)
);
CREATE INDEX job_messages_rate_window ON job_messages (project_id, created_at) WHERE source = 'api';

CREATE TABLE job_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  job_id text NOT NULL REFERENCES jobs (id),
  type text NOT NULL,
  from_status text,
  to_status text,
  cause text NOT NULL,
  detail text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_events_job ON job_events (job_id, id);

CREATE TABLE dispatch_outbox (
  job_id text NOT NULL REFERENCES jobs (id),
  run_attempt integer NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed', 'skipped')),
  tries integer NOT NULL DEFAULT 0,
  next_try_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, run_attempt)
);
CREATE INDEX dispatch_outbox_due ON dispatch_outbox (next_try_at) WHERE state = 'pending';
`,
  },
  {
    version: 2,
    name: "general task queue replaces the dispatch outbox",
    sql: `
CREATE TABLE tasks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  dedupe_key text NOT NULL,
  payload text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed', 'skipped')),
  tries integer NOT NULL DEFAULT 0,
  run_again boolean NOT NULL DEFAULT false,
  next_try_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tasks_pending_key ON tasks (dedupe_key) WHERE state = 'pending';
CREATE INDEX tasks_due ON tasks (next_try_at) WHERE state = 'pending';
CREATE INDEX tasks_finished ON tasks (updated_at) WHERE state <> 'pending';

INSERT INTO tasks (kind, dedupe_key, payload, state, tries, next_try_at, last_error, created_at, updated_at)
SELECT 'dispatch', 'dispatch:' || job_id || ':' || run_attempt,
       json_build_object('jobId', job_id, 'runAttempt', run_attempt)::text,
       state, tries, next_try_at, last_error, created_at, updated_at
FROM dispatch_outbox;
DROP TABLE dispatch_outbox;
`,
  },
  {
    version: 3,
    name: "GitHub App loop: installations, runs, tracking comments, activity for the watchdog",
    sql: `
ALTER TABLE projects ADD COLUMN repository_id bigint;
ALTER TABLE projects ADD COLUMN installation_suspended boolean NOT NULL DEFAULT false;
CREATE INDEX projects_installation ON projects (installation_id) WHERE installation_id IS NOT NULL;

ALTER TABLE jobs ADD COLUMN tracking_comment_id bigint;
ALTER TABLE jobs ADD COLUMN last_activity_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX jobs_active_activity ON jobs (last_activity_at) WHERE status = 'active';
CREATE INDEX jobs_project_pr ON jobs (project_id, pr_number) WHERE pr_number IS NOT NULL;

CREATE TABLE job_runs (
  job_id text NOT NULL REFERENCES jobs (id),
  run_attempt integer NOT NULL,
  workflow_run_id bigint,
  workflow_run_url text,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  progress text,
  reported_at timestamptz,
  outcome text CHECK (outcome IN ('completed', 'failed')),
  report text,
  PRIMARY KEY (job_id, run_attempt)
);
CREATE INDEX job_runs_workflow_run ON job_runs (workflow_run_id) WHERE workflow_run_id IS NOT NULL;

ALTER TABLE job_messages ADD COLUMN comment_id bigint;
CREATE UNIQUE INDEX job_messages_comment ON job_messages (comment_id) WHERE comment_id IS NOT NULL;
`,
  },
];
