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
  {
    version: 4,
    name: "visitor analytics (days are epoch-day integers): salts, inbox, raw events, per-visitor day masks, first-visit and return aggregates, daily views",
    sql: `
ALTER TABLE projects ADD COLUMN analytics_salt_window text NOT NULL DEFAULT 'month' CHECK (analytics_salt_window IN ('day', 'week', 'month'));
ALTER TABLE projects ADD COLUMN analytics_origins text[] NOT NULL DEFAULT '{}';

CREATE TABLE analytics_salts (
  project_id text NOT NULL REFERENCES projects (id),
  window_start integer NOT NULL,
  secret bytea NOT NULL,
  delete_after timestamptz NOT NULL,
  PRIMARY KEY (project_id, window_start)
);
CREATE INDEX analytics_salts_expiry ON analytics_salts (delete_after);

CREATE TABLE analytics_windows (
  project_id text NOT NULL REFERENCES projects (id),
  window_start integer NOT NULL,
  window_end integer NOT NULL,
  PRIMARY KEY (project_id, window_start)
);

CREATE TABLE analytics_hit_ids (
  project_id text NOT NULL,
  hit_key bigint NOT NULL,
  day integer NOT NULL,
  PRIMARY KEY (project_id, hit_key)
);
CREATE INDEX analytics_hit_ids_day ON analytics_hit_ids (day);

CREATE TABLE analytics_inbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id text NOT NULL,
  at timestamptz NOT NULL,
  day integer NOT NULL,
  window_start integer NOT NULL,
  window_end integer NOT NULL,
  path text NOT NULL,
  visitor bigint NOT NULL,
  class smallint NOT NULL,
  category text
);

CREATE TABLE analytics_paths (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id),
  path text NOT NULL
);
CREATE UNIQUE INDEX analytics_paths_project_path ON analytics_paths (project_id, path);

CREATE TABLE analytics_events (
  project_id text NOT NULL,
  at timestamptz NOT NULL,
  path_id integer NOT NULL,
  visitor bigint NOT NULL,
  class smallint NOT NULL,
  category text
);
CREATE INDEX analytics_events_project_at ON analytics_events (project_id, at);

CREATE TABLE analytics_visitor_days (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  path_id integer NOT NULL,
  visitor bigint NOT NULL,
  human integer NOT NULL,
  ai integer NOT NULL,
  PRIMARY KEY (project_id, window_start, path_id, visitor)
);

CREATE TABLE analytics_first_visits (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  day smallint NOT NULL,
  path_id integer NOT NULL,
  human integer NOT NULL,
  ai integer NOT NULL,
  total integer NOT NULL,
  PRIMARY KEY (project_id, window_start, day, path_id)
);

CREATE TABLE analytics_window_reach (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  path_id integer NOT NULL,
  human integer NOT NULL,
  ai integer NOT NULL,
  total integer NOT NULL,
  PRIMARY KEY (project_id, window_start, path_id)
);

CREATE TABLE analytics_returns (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  day smallint NOT NULL,
  prev smallint NOT NULL,
  path_id integer NOT NULL,
  human integer NOT NULL,
  ai integer NOT NULL,
  total integer NOT NULL,
  PRIMARY KEY (project_id, window_start, day, prev, path_id)
);

CREATE TABLE analytics_daily_views (
  project_id text NOT NULL,
  day integer NOT NULL,
  path_id integer NOT NULL,
  human bigint NOT NULL,
  ai bigint NOT NULL,
  bot bigint NOT NULL,
  PRIMARY KEY (project_id, day, path_id)
);

CREATE TABLE analytics_daily_categories (
  project_id text NOT NULL,
  day integer NOT NULL,
  class smallint NOT NULL,
  category text NOT NULL,
  views bigint NOT NULL,
  PRIMARY KEY (project_id, day, class, category)
);
`,
  },
  {
    version: 5,
    name: "dashboard sessions (only a hash of the cookie's secret is stored)",
    sql: `
CREATE TABLE dashboard_sessions (
  secret_hash text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('operator', 'github')),
  github_id bigint,
  github_login text,
  -- Operator sessions end when the operator token changes: they hold a hash of the token they signed in with.
  operator_token_hash text,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_expiry ON dashboard_sessions (expires_at);
`,
  },
  {
    version: 6,
    name: "messages from the dashboard are recorded as such (they count against the rate limit like the API's)",
    sql: `
ALTER TABLE job_messages DROP CONSTRAINT job_messages_source_check;
ALTER TABLE job_messages ADD CONSTRAINT job_messages_source_check CHECK (source IN ('api', 'dashboard', 'comment'));
DROP INDEX job_messages_rate_window;
CREATE INDEX job_messages_rate_window ON job_messages (project_id, created_at) WHERE source <> 'comment';
`,
  },
  {
    version: 7,
    name: "analytics inbox rows carry their rollup partition (the visitor's low bits), so several workers count in parallel",
    sql: `
-- 16 partitions (ROLLUP_PARTITIONS in analytics/rollup.ts): every mask of a visitor is in one partition.
ALTER TABLE analytics_inbox ADD COLUMN part smallint GENERATED ALWAYS AS ((visitor & 15)::smallint) STORED;
CREATE INDEX analytics_inbox_part ON analytics_inbox (part, id);
`,
  },
  {
    version: 8,
    name: "analytics inbox rows carry their page's id (resolved when accepted) instead of its path, and are found through their partition's index only; the inbox is vacuumed as a queue; visitor masks are updated in place",
    sql: `
ALTER TABLE analytics_inbox ADD COLUMN path_id integer;
INSERT INTO analytics_paths (project_id, path) SELECT DISTINCT project_id, path FROM analytics_inbox ORDER BY project_id, path ON CONFLICT DO NOTHING;
UPDATE analytics_inbox i SET path_id = ap.id FROM analytics_paths ap WHERE ap.project_id = i.project_id AND ap.path = i.path;
ALTER TABLE analytics_inbox ALTER COLUMN path_id SET NOT NULL;
ALTER TABLE analytics_inbox DROP COLUMN path;
-- The rollup deletes the rows it counts where they lie (ctid); (part, id) is the only index it needs.
ALTER TABLE analytics_inbox DROP CONSTRAINT analytics_inbox_pkey;
-- A queue: vacuumed after every 10,000 counted views rather than when a fifth of it is dead, so
-- finding the next views never walks far through index entries of views already counted.
ALTER TABLE analytics_inbox SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
-- Room on each page for a mask's new version (a visitor's site mask gains a day on each day with a
-- view): it stays on its page and needs no new index entry (a HOT update).
ALTER TABLE analytics_visitor_days SET (fillfactor = 80);
`,
  },
  {
    version: 9,
    name: "analytics keep what was learned about each view: the AI agent and whether its address verified it, the format read and the response status; per-agent aggregates and visitor masks; bot visitors next to human and AI; markdown twins of a page can count as the page",
    sql: `
-- Shared by all projects: an agent's name, operator and category are facts about the agent, not the site.
CREATE TABLE analytics_agents (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE,
  operator text NOT NULL,
  category text NOT NULL
);

-- verification: 0 unverifiable, 1 verified, 2 spoofed (a spoofed view's class is bot); null without an agent.
-- format: 0 html, 1 markdown, 2 llms.txt, 3 other text.
ALTER TABLE analytics_inbox ADD COLUMN agent_id integer, ADD COLUMN verification smallint, ADD COLUMN format smallint NOT NULL DEFAULT 0, ADD COLUMN status smallint NOT NULL DEFAULT 200;
ALTER TABLE analytics_events ADD COLUMN agent_id integer, ADD COLUMN verification smallint, ADD COLUMN format smallint NOT NULL DEFAULT 0, ADD COLUMN status smallint NOT NULL DEFAULT 200;

-- Bot visitors are counted from this version on (views before it set no bot days).
ALTER TABLE analytics_visitor_days ADD COLUMN bot integer NOT NULL DEFAULT 0;
ALTER TABLE analytics_window_reach ADD COLUMN bot integer NOT NULL DEFAULT 0;
ALTER TABLE analytics_first_visits ADD COLUMN bot integer NOT NULL DEFAULT 0;
ALTER TABLE analytics_returns ADD COLUMN bot integer NOT NULL DEFAULT 0;

ALTER TABLE projects ADD COLUMN analytics_markdown_as_page boolean NOT NULL DEFAULT true;

CREATE TABLE analytics_daily_formats (
  project_id text NOT NULL,
  day integer NOT NULL,
  path_id integer NOT NULL,
  format smallint NOT NULL,
  human bigint NOT NULL,
  ai bigint NOT NULL,
  bot bigint NOT NULL,
  PRIMARY KEY (project_id, day, path_id, format)
);

CREATE TABLE analytics_daily_agents (
  project_id text NOT NULL,
  day integer NOT NULL,
  agent_id integer NOT NULL,
  verified bigint NOT NULL,
  spoofed bigint NOT NULL,
  unverifiable bigint NOT NULL,
  PRIMARY KEY (project_id, day, agent_id)
);

CREATE TABLE analytics_daily_agent_pages (
  project_id text NOT NULL,
  day integer NOT NULL,
  agent_id integer NOT NULL,
  path_id integer NOT NULL,
  views bigint NOT NULL,
  failed bigint NOT NULL,
  PRIMARY KEY (project_id, day, agent_id, path_id)
);

CREATE TABLE analytics_daily_failures (
  project_id text NOT NULL,
  day integer NOT NULL,
  path_id integer NOT NULL,
  status smallint NOT NULL,
  agent_id integer NOT NULL,
  views bigint NOT NULL,
  PRIMARY KEY (project_id, day, path_id, status, agent_id)
);

-- Distinct visitors per agent (path 0: any page), the same (day, prev) counters as the site's (reach.ts).
CREATE TABLE analytics_agent_visitor_days (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  agent_id integer NOT NULL,
  path_id integer NOT NULL,
  visitor bigint NOT NULL,
  days integer NOT NULL,
  PRIMARY KEY (project_id, window_start, agent_id, path_id, visitor)
) WITH (fillfactor = 80);

CREATE TABLE analytics_agent_first_visits (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  agent_id integer NOT NULL,
  day smallint NOT NULL,
  path_id integer NOT NULL,
  visitors integer NOT NULL,
  PRIMARY KEY (project_id, window_start, agent_id, day, path_id)
);

CREATE TABLE analytics_agent_returns (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  agent_id integer NOT NULL,
  day smallint NOT NULL,
  prev smallint NOT NULL,
  path_id integer NOT NULL,
  visitors integer NOT NULL,
  PRIMARY KEY (project_id, window_start, agent_id, day, prev, path_id)
);

-- The agents report reads only the any-page rows; one agent's pages are read by agent.
CREATE INDEX analytics_agent_first_visits_any_page ON analytics_agent_first_visits (project_id, window_start, day) WHERE path_id = 0;
CREATE INDEX analytics_agent_returns_any_page ON analytics_agent_returns (project_id, window_start, day) WHERE path_id = 0;
CREATE INDEX analytics_daily_agent_pages_agent ON analytics_daily_agent_pages (project_id, agent_id, day);

-- Address lists fetched by \`inkwell agents refresh\`; they replace the release's snapshot of the same id.
CREATE TABLE analytics_agent_ranges (
  id text PRIMARY KEY,
  url text NOT NULL,
  document jsonb NOT NULL,
  fetched_at timestamptz NOT NULL
);
`,
  },
  {
    version: 10,
    name: "web bot auth signatures seen",
    sql: `
-- Verified Web Bot Auth signatures, so a second use of one is caught as a replay (web-bot-auth.ts).
CREATE TABLE analytics_signature_uses (
  project_id text NOT NULL,
  signature text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, signature)
);
CREATE INDEX analytics_signature_uses_expiry ON analytics_signature_uses (expires_at);
`,
  },
  {
    version: 11,
    name: "distinct visitors per format: masks per format for the pairs that read other formats than html, reach counters per format (html's as corrections to the site's)",
    sql: `
-- Per-format visitors start with this migration: views counted before it count as html.
-- Which other formats than html a (page, visitor) pair ever read (bit 1 << format); 0: html only.
ALTER TABLE analytics_visitor_days ADD COLUMN formats smallint NOT NULL DEFAULT 0;

-- Masks per format of the (page, visitor) pairs that ever read a page in another format than html
-- (rollup-format-plan.ts); looked up by pair, so the format comes last in the key.
CREATE TABLE analytics_format_visitor_days (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  path_id integer NOT NULL,
  visitor bigint NOT NULL,
  format smallint NOT NULL,
  human integer NOT NULL,
  ai integer NOT NULL,
  bot integer NOT NULL,
  PRIMARY KEY (project_id, window_start, path_id, visitor, format)
) WITH (fillfactor = 80);

CREATE TABLE analytics_format_window_reach (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  format smallint NOT NULL,
  path_id integer NOT NULL,
  human integer NOT NULL,
  ai integer NOT NULL,
  bot integer NOT NULL,
  total integer NOT NULL,
  PRIMARY KEY (project_id, window_start, format, path_id)
);

CREATE TABLE analytics_format_first_visits (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  format smallint NOT NULL,
  day smallint NOT NULL,
  path_id integer NOT NULL,
  human integer NOT NULL,
  ai integer NOT NULL,
  bot integer NOT NULL,
  total integer NOT NULL,
  PRIMARY KEY (project_id, window_start, format, day, path_id)
);

CREATE TABLE analytics_format_returns (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  format smallint NOT NULL,
  day smallint NOT NULL,
  prev smallint NOT NULL,
  path_id integer NOT NULL,
  human integer NOT NULL,
  ai integer NOT NULL,
  bot integer NOT NULL,
  total integer NOT NULL,
  PRIMARY KEY (project_id, window_start, format, day, prev, path_id)
);
`,
  },
  {
    version: 12,
    name: "the days of each month an AI agent read each page, so the agents report counts distinct pages without reading every day",
    sql: `
CREATE TABLE analytics_agent_page_months (
  project_id text NOT NULL,
  month_start integer NOT NULL,
  agent_id integer NOT NULL,
  path_id integer NOT NULL,
  days integer NOT NULL,
  PRIMARY KEY (project_id, month_start, agent_id, path_id)
);

INSERT INTO analytics_agent_page_months (project_id, month_start, agent_id, path_id, days)
SELECT project_id, month_start, agent_id, path_id, bit_or(1 << (day - month_start))
FROM (
  SELECT project_id, agent_id, path_id, day,
         (date_trunc('month', date '1970-01-01' + day) :: date - date '1970-01-01') AS month_start
  FROM analytics_daily_agent_pages
) d
GROUP BY project_id, month_start, agent_id, path_id;
`,
  },
  {
    version: 13,
    name: "the views export filtered by format reads only that format's rows",
    sql: `
CREATE INDEX analytics_daily_formats_by_format ON analytics_daily_formats (project_id, format, day) INCLUDE (path_id, human, ai, bot);
`,
  },
  {
    version: 14,
    name: "views per format and calendar month, so a report reads a whole month as one row per page",
    sql: `
CREATE TABLE analytics_monthly_formats (
  project_id text NOT NULL,
  month_start integer NOT NULL,
  format smallint NOT NULL,
  path_id integer NOT NULL,
  human bigint NOT NULL,
  ai bigint NOT NULL,
  bot bigint NOT NULL,
  PRIMARY KEY (project_id, format, month_start, path_id)
);

INSERT INTO analytics_monthly_formats (project_id, month_start, format, path_id, human, ai, bot)
SELECT project_id, (date_trunc('month', date '1970-01-01' + day) :: date - date '1970-01-01'), format, path_id, sum(human), sum(ai), sum(bot)
FROM analytics_daily_formats
GROUP BY 1, 2, 3, 4;
`,
  },
  {
    version: 15,
    name: "what a job's runs did, on the job for the polling path: summary, files, validation and usage (JSON), and the active run's progress line",
    sql: `
ALTER TABLE jobs ADD COLUMN outcome text;
ALTER TABLE jobs ADD COLUMN progress text;
`,
  },
  {
    version: 16,
    name: "project webhooks: endpoints (their signing secret is needed to sign, so it is kept) and the log of each event's delivery",
    sql: `
CREATE TABLE project_webhooks (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id),
  url text NOT NULL,
  format text NOT NULL CHECK (format IN ('standard', 'slack')),
  events text NOT NULL,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX project_webhooks_by_project ON project_webhooks (project_id) WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  webhook_id text NOT NULL REFERENCES project_webhooks (id),
  event text NOT NULL,
  payload text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_status integer,
  last_error text,
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at DESC, id DESC);
`,
  },
  {
    version: 17,
    name: "per-job options: the models a project's jobs may ask for, and each job's draft, labels and reviewers",
    sql: `
ALTER TABLE projects ADD COLUMN allowed_models text[] NOT NULL DEFAULT '{}';
ALTER TABLE jobs ADD COLUMN requested_model text;
ALTER TABLE jobs ADD COLUMN draft boolean NOT NULL DEFAULT false;
ALTER TABLE jobs ADD COLUMN labels text[] NOT NULL DEFAULT '{}';
ALTER TABLE jobs ADD COLUMN reviewers text[] NOT NULL DEFAULT '{}';
`,
  },
  {
    version: 18,
    name: "each run's agent transcript, gzip-compressed JSON",
    sql: `
ALTER TABLE job_runs ADD COLUMN transcript bytea;
`,
  },
  {
    version: 19,
    name: "a submitted PR review becomes one message: the review it came from, taken once",
    sql: `
ALTER TABLE job_messages ADD COLUMN review_id bigint;
CREATE UNIQUE INDEX job_messages_review ON job_messages (review_id) WHERE review_id IS NOT NULL;
`,
  },
  {
    version: 20,
    name: "path prefixes counted as sections: each page's enclosing folders (analytics_paths rows ending in /), so a prefix's distinct visitors are exact",
    sql: `
CREATE TABLE analytics_path_sections (
  path_id integer NOT NULL,
  section_id integer NOT NULL,
  PRIMARY KEY (path_id, section_id)
);
`,
  },
  {
    version: 21,
    name: "referrals: where people's views came from (a source's host or utm_source, never a path), counted as groups like sections and as daily views per source and page",
    sql: `
ALTER TABLE analytics_inbox ADD COLUMN source_id integer, ADD COLUMN referral_ids text;

CREATE TABLE analytics_daily_referrals (
  project_id text NOT NULL,
  day integer NOT NULL,
  source_id integer NOT NULL,
  path_id integer NOT NULL,
  views bigint NOT NULL,
  PRIMARY KEY (project_id, day, source_id, path_id)
);
`,
  },
  {
    version: 22,
    name: "one row per visitor and salt window holds all its day masks (site, pages, groups, formats, agents): a view costs one row of the store, not one per mask",
    sql: `
-- Each column is a run of fixed-width records of big-endian int32, by key (visitor-states.ts):
-- masks (path_id, human, ai, bot, formats), format_masks (path_id, format, human, ai, bot),
-- agent_masks (agent_id, path_id, days).
CREATE TABLE analytics_visitor_states (
  project_id text NOT NULL,
  window_start integer NOT NULL,
  visitor bigint NOT NULL,
  masks bytea NOT NULL,
  format_masks bytea NOT NULL,
  agent_masks bytea NOT NULL,
  PRIMARY KEY (project_id, window_start, visitor)
) WITH (fillfactor = 70);

INSERT INTO analytics_visitor_states (project_id, window_start, visitor, masks, format_masks, agent_masks)
WITH m AS (
  SELECT project_id, window_start, visitor,
         string_agg(int4send(path_id) || int4send(human) || int4send(ai) || int4send(bot) || int4send(formats::integer), ''::bytea ORDER BY path_id) AS masks
  FROM analytics_visitor_days GROUP BY project_id, window_start, visitor
), f AS (
  SELECT project_id, window_start, visitor,
         string_agg(int4send(path_id) || int4send(format::integer) || int4send(human) || int4send(ai) || int4send(bot), ''::bytea ORDER BY path_id, format) AS format_masks
  FROM analytics_format_visitor_days GROUP BY project_id, window_start, visitor
), a AS (
  SELECT project_id, window_start, visitor,
         string_agg(int4send(agent_id) || int4send(path_id) || int4send(days), ''::bytea ORDER BY agent_id, path_id) AS agent_masks
  FROM analytics_agent_visitor_days GROUP BY project_id, window_start, visitor
)
SELECT project_id, window_start, visitor, coalesce(m.masks, ''::bytea), coalesce(f.format_masks, ''::bytea), coalesce(a.agent_masks, ''::bytea)
FROM m FULL JOIN f USING (project_id, window_start, visitor) FULL JOIN a USING (project_id, window_start, visitor);

DROP TABLE analytics_visitor_days;
DROP TABLE analytics_format_visitor_days;
DROP TABLE analytics_agent_visitor_days;
`,
  },
  {
    version: 23,
    name: "an agent's verified and spoofed views per page, so the agents report can be narrowed to a path prefix",
    sql: `
-- views stays verified + unverifiable; spoofed claims get rows of their own (views 0) from now on.
ALTER TABLE analytics_daily_agent_pages ADD COLUMN verified bigint NOT NULL DEFAULT 0;
ALTER TABLE analytics_daily_agent_pages ADD COLUMN spoofed bigint NOT NULL DEFAULT 0;

-- Earlier rows: on a day an agent had no unverifiable claim, all its page views that day were
-- verified; on other days they stay unverifiable (their split is not known).
UPDATE analytics_daily_agent_pages p SET verified = p.views
FROM analytics_daily_agents a
WHERE a.project_id = p.project_id AND a.day = p.day AND a.agent_id = p.agent_id AND a.unverifiable = 0;
`,
  },
  {
    version: 24,
    name: "views per page and calendar month, as analytics_monthly_formats has per format: the views report reads a whole month as one row per page",
    sql: `
CREATE TABLE analytics_monthly_views (
  project_id text NOT NULL,
  month_start integer NOT NULL,
  path_id integer NOT NULL,
  human bigint NOT NULL,
  ai bigint NOT NULL,
  bot bigint NOT NULL,
  PRIMARY KEY (project_id, month_start, path_id)
);

INSERT INTO analytics_monthly_views (project_id, month_start, path_id, human, ai, bot)
SELECT project_id, (date_trunc('month', date '1970-01-01' + day) :: date - date '1970-01-01'), path_id, sum(human), sum(ai), sum(bot)
FROM analytics_daily_views
GROUP BY 1, 2, 3;
`,
  },
  {
    version: 25,
    name: "arrivals per source and page, and agents' reads per page, per calendar month: the referral, channel and agent reports read a whole month as one row per key",
    sql: `
CREATE TABLE analytics_monthly_referrals (
  project_id text NOT NULL,
  month_start integer NOT NULL,
  source_id integer NOT NULL,
  path_id integer NOT NULL,
  views bigint NOT NULL,
  PRIMARY KEY (project_id, month_start, source_id, path_id)
);

INSERT INTO analytics_monthly_referrals (project_id, month_start, source_id, path_id, views)
SELECT project_id, (date_trunc('month', date '1970-01-01' + day) :: date - date '1970-01-01'), source_id, path_id, sum(views)
FROM analytics_daily_referrals
GROUP BY 1, 2, 3, 4;

CREATE TABLE analytics_monthly_agent_pages (
  project_id text NOT NULL,
  month_start integer NOT NULL,
  agent_id integer NOT NULL,
  path_id integer NOT NULL,
  views bigint NOT NULL,
  failed bigint NOT NULL,
  verified bigint NOT NULL,
  spoofed bigint NOT NULL,
  PRIMARY KEY (project_id, month_start, agent_id, path_id)
);
-- One agent's pages over many months, as analytics_daily_agent_pages_agent serves its days.
CREATE INDEX analytics_monthly_agent_pages_agent ON analytics_monthly_agent_pages (project_id, agent_id, month_start);

INSERT INTO analytics_monthly_agent_pages (project_id, month_start, agent_id, path_id, views, failed, verified, spoofed)
SELECT project_id, (date_trunc('month', date '1970-01-01' + day) :: date - date '1970-01-01'), agent_id, path_id, sum(views), sum(failed), sum(verified), sum(spoofed)
FROM analytics_daily_agent_pages
GROUP BY 1, 2, 3, 4;
`,
  },
  {
    version: 26,
    name: "reach counters by path: a time series of the site, a section or a channel, and the agents under a prefix, read that one path's first visits and returns, not every page's",
    sql: `
CREATE INDEX analytics_first_visits_by_path ON analytics_first_visits (project_id, path_id, window_start, day);
CREATE INDEX analytics_returns_by_path ON analytics_returns (project_id, path_id, window_start, day);
-- The agents' by-path indexes serve the whole site (path 0) as the partial ones did, and sections too.
CREATE INDEX analytics_agent_first_visits_by_path ON analytics_agent_first_visits (project_id, path_id, window_start, day);
CREATE INDEX analytics_agent_returns_by_path ON analytics_agent_returns (project_id, path_id, window_start, day);
DROP INDEX analytics_agent_first_visits_any_page;
DROP INDEX analytics_agent_returns_any_page;
`,
  },
  {
    version: 27,
    name: "views per day of the site and each section, in all and per source: a time series of views or arrivals reads a row per day, not every page's",
    sql: `
CREATE TABLE analytics_daily_scope_views (
  project_id text NOT NULL,
  scope_id integer NOT NULL,
  source_id integer NOT NULL,
  day integer NOT NULL,
  human bigint NOT NULL,
  ai bigint NOT NULL,
  bot bigint NOT NULL,
  PRIMARY KEY (project_id, scope_id, source_id, day)
);

-- A page is linked to its sections when a view of it is accepted, so pages not viewed since
-- sections were counted (migration 20) have no links: link every page first (page-sections.ts,
-- sectionPaths: its first one and two segments), so a section's rows hold all its pages' views.
CREATE TEMPORARY TABLE page_section_paths ON COMMIT DROP AS
SELECT p.project_id, p.id AS path_id, '/' || split_part(p.path, '/', 2) || '/' AS section
FROM analytics_paths p WHERE left(p.path, 1) = '/' AND right(p.path, 1) <> '/' AND split_part(p.path, '/', 2) <> ''
UNION
SELECT p.project_id, p.id, '/' || split_part(p.path, '/', 2) || '/' || split_part(p.path, '/', 3) || '/'
FROM analytics_paths p WHERE left(p.path, 1) = '/' AND right(p.path, 1) <> '/' AND split_part(p.path, '/', 2) <> '' AND split_part(p.path, '/', 3) <> '';

INSERT INTO analytics_paths (project_id, path)
SELECT DISTINCT project_id, section FROM page_section_paths ORDER BY 1, 2 ON CONFLICT DO NOTHING;

INSERT INTO analytics_path_sections (path_id, section_id)
SELECT l.path_id, s.id FROM page_section_paths l JOIN analytics_paths s ON s.project_id = l.project_id AND s.path = l.section
ORDER BY 1, 2 ON CONFLICT DO NOTHING;

-- Scope 0 is the site, source 0 all views; a source's rows are its arrivals (people's).
INSERT INTO analytics_daily_scope_views (project_id, scope_id, source_id, day, human, ai, bot)
SELECT project_id, 0, 0, day, sum(human), sum(ai), sum(bot) FROM analytics_daily_views GROUP BY project_id, day
UNION ALL
SELECT v.project_id, s.section_id, 0, v.day, sum(v.human), sum(v.ai), sum(v.bot)
FROM analytics_daily_views v JOIN analytics_path_sections s ON s.path_id = v.path_id GROUP BY v.project_id, s.section_id, v.day
UNION ALL
SELECT project_id, 0, source_id, day, sum(views), 0, 0 FROM analytics_daily_referrals GROUP BY project_id, source_id, day
UNION ALL
SELECT r.project_id, s.section_id, r.source_id, r.day, sum(r.views), 0, 0
FROM analytics_daily_referrals r JOIN analytics_path_sections s ON s.path_id = r.path_id GROUP BY r.project_id, s.section_id, r.source_id, r.day;
`,
  },
  {
    version: 28,
    name: "automations (source repositories, issues, schedules) and what started each job: its trigger, and the automation it came from",
    sql: `
CREATE TABLE automations (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id),
  kind text NOT NULL CHECK (kind IN ('source', 'issues', 'schedule')),
  config text NOT NULL,
  source_repo text,
  paused boolean NOT NULL DEFAULT false,
  next_run_at timestamptz,
  last_fired_at timestamptz,
  last_outcome text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX automations_of_project ON automations (project_id, created_at);
CREATE UNIQUE INDEX automations_one_issues ON automations (project_id) WHERE kind = 'issues';
CREATE UNIQUE INDEX automations_source_repo ON automations (source_repo, project_id) WHERE kind = 'source';
CREATE INDEX automations_due ON automations (next_run_at) WHERE kind = 'schedule' AND NOT paused;

ALTER TABLE jobs ADD COLUMN trigger_type text NOT NULL DEFAULT 'api';
ALTER TABLE jobs ADD COLUMN trigger_url text;
ALTER TABLE jobs ADD COLUMN automation_id text REFERENCES automations (id) ON DELETE SET NULL;
-- The code repository the agent may read, at which commit, through which installation (JSON); null for most jobs.
ALTER TABLE jobs ADD COLUMN source_context text;
ALTER TABLE job_messages DROP CONSTRAINT job_messages_source_check;
ALTER TABLE job_messages ADD CONSTRAINT job_messages_source_check CHECK (source IN ('api', 'dashboard', 'comment', 'automation'));
-- What an automation's follow-up came from (a merge: owner/repo#n), so a delivery GitHub repeats adds no second message.
ALTER TABLE job_messages ADD COLUMN event_key text;
CREATE UNIQUE INDEX job_messages_event_key ON job_messages (event_key) WHERE event_key IS NOT NULL;
UPDATE jobs j SET trigger_type = m.source FROM job_messages m WHERE m.job_id = j.id AND m.seq = 1 AND m.source <> 'api';
CREATE INDEX jobs_project_trigger_recent ON jobs (project_id, trigger_type, created_at DESC, id DESC);
-- An automation's open jobs, and what deleting an automation sets to NULL.
CREATE INDEX jobs_of_automation ON jobs (automation_id, created_at DESC) WHERE automation_id IS NOT NULL;
`,
  },
  {
    version: 29,
    name: "when a job's pull request was merged (the closed loop measures its pages' readers before and after), and the first 7-day result once it was announced",
    sql: `
ALTER TABLE jobs ADD COLUMN merged_at timestamptz;
-- Merged before this version: the archive time (the webhook's arrival) stands for the merge.
UPDATE jobs j SET merged_at = j.archived_at
WHERE j.status = 'archived' AND EXISTS (SELECT 1 FROM job_events e WHERE e.job_id = j.id AND e.type = 'pr_closed' AND e.detail = 'pull request merged');
CREATE INDEX jobs_project_merged ON jobs (project_id, merged_at DESC, id DESC) WHERE merged_at IS NOT NULL;
-- The first 7-day window's result (JSON, job-impact), set once when it completes: the tracking comment's line.
ALTER TABLE jobs ADD COLUMN impact_notice text;
-- The site's views per day and format, so a few pages' Markdown reads have a baseline without summing every page's rows.
CREATE TABLE analytics_daily_site_formats (
  project_id text NOT NULL,
  day integer NOT NULL,
  format smallint NOT NULL,
  human bigint NOT NULL,
  ai bigint NOT NULL,
  bot bigint NOT NULL,
  PRIMARY KEY (project_id, day, format)
);
INSERT INTO analytics_daily_site_formats (project_id, day, format, human, ai, bot)
SELECT project_id, day, format, sum(human), sum(ai), sum(bot) FROM analytics_daily_formats GROUP BY 1, 2, 3;

-- The page a job from an analytics suggestion is about: the suggestion shows the job that addressed it.
ALTER TABLE jobs ADD COLUMN trigger_path text;
CREATE INDEX jobs_project_trigger_path ON jobs (project_id, trigger_path, created_at DESC) WHERE trigger_path IS NOT NULL;
UPDATE jobs SET trigger_path = replace(replace(substring(trigger_url FROM '[?&]path=([^&#]*)'), '%2F', '/'), '%2f', '/')
WHERE trigger_type = 'suggestion' AND trigger_url IS NOT NULL;
-- An endpoint that took every event takes the new one too (one that chose some keeps its choice).
UPDATE project_webhooks SET events = events || ',job.impact' WHERE events = 'job.completed,job.failed,job.archived,job.pull_request_opened';
`,
  },
  {
    version: 30,
    name: "a few pages' daily agent and format rows read by path: a job's impact reads its pages' days, not every page's (a 50-page job at 10M views: 288 ms to 37 ms p50 on PostgreSQL)",
    sql: `
-- Covering, so the impact reads the index alone once the table is vacuumed.
CREATE INDEX analytics_daily_agent_pages_by_path ON analytics_daily_agent_pages (project_id, path_id, day) INCLUDE (agent_id, views, failed);
CREATE INDEX analytics_daily_formats_by_path ON analytics_daily_formats (project_id, path_id, format, day) INCLUDE (human, ai);
`,
  },
  {
    version: 31,
    name: "what each API key may do (send views, read analytics, run jobs, or all); keys made before keep all",
    sql: `
-- Comma-separated scopes (shared/key-scopes.ts), validated where keys are made; 'all' includes scopes added later.
ALTER TABLE api_keys ADD COLUMN scopes text NOT NULL DEFAULT 'all';
`,
  },
  {
    version: 32,
    name: "projects on GitLab: the forge a project's repository is on, and a GitLab project's connection (instance, project, access token, webhook tokens)",
    sql: `
ALTER TABLE projects ADD COLUMN forge text NOT NULL DEFAULT 'github' CHECK (forge IN ('github', 'gitlab'));
-- A GitLab project's repo_full_name is host/path (lower-cased), so it never meets a GitHub owner/repo; repository_id is GitLab's project id.
CREATE TABLE gitlab_connections (
  project_id text PRIMARY KEY REFERENCES projects (id),
  -- The instance's URL: its API's base and its CI ID tokens' issuer.
  base_url text NOT NULL,
  gitlab_project_id bigint NOT NULL,
  project_path text NOT NULL,
  default_branch text,
  -- Kept, not hashed: Inkwell calls GitLab with it and signs nothing.
  access_token text NOT NULL,
  -- The username of the access token's user: a note that mentions it addresses the agent, and its own notes are never follow-ups.
  token_username text NOT NULL,
  -- X-Gitlab-Token of the project webhook Inkwell registered, and its Standard Webhooks signing token (whsec_...).
  webhook_token text NOT NULL,
  signing_token text NOT NULL,
  webhook_id bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX gitlab_connections_project ON gitlab_connections (base_url, gitlab_project_id);
`,
  },
  {
    version: 33,
    name: "jobs that wait for the user: plan approval (project setting and per job), the plan or question a job waits on, and how long it may wait; endpoints that took every event take the step events too",
    sql: `
-- waiting_for: NULL (working or finished), 'approval' (a plan to approve) or 'answer' (a question to answer); the job stays active meanwhile.
ALTER TABLE jobs ADD COLUMN plan_approval boolean NOT NULL DEFAULT false;
-- The run attempt that carries out the approved plan (the one approving started); NULL: not approved.
ALTER TABLE jobs ADD COLUMN plan_approved_attempt integer;
ALTER TABLE jobs ADD COLUMN max_questions integer NOT NULL DEFAULT 1;
ALTER TABLE jobs ADD COLUMN waiting_for text CHECK (waiting_for IN ('approval', 'answer'));
ALTER TABLE jobs ADD COLUMN waiting_since timestamptz;
ALTER TABLE jobs ADD COLUMN plan text;
ALTER TABLE jobs ADD COLUMN question text;
-- The time-limit sweep reads only waiting jobs, oldest first.
CREATE INDEX jobs_waiting ON jobs (waiting_since) WHERE waiting_for IS NOT NULL;
ALTER TABLE projects ADD COLUMN plan_approval boolean NOT NULL DEFAULT false;
-- 1..365, validated where it is set (shared/admin-schemas.ts).
ALTER TABLE projects ADD COLUMN wait_limit_days integer NOT NULL DEFAULT 14;
-- An endpoint that took every event takes the new ones too (one that chose some keeps its choice).
UPDATE project_webhooks SET events = events || ',job.created,job.run_started,job.waiting,job.run_finished'
WHERE events = 'job.completed,job.failed,job.archived,job.pull_request_opened,job.impact';
`,
  },
  {
    version: 34,
    name: "robots.txt history (every version with the time it took effect and its source, the fetches from the site's URL and their outcome) and AI agents' views judged against the version in force: per agent, version and verdict per day, and the disallowed pages with first and last seen",
    sql: `
CREATE TABLE robots_versions (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id),
  effective_at timestamptz NOT NULL,
  source text NOT NULL CHECK (source IN ('fetch', 'repository', 'api')),
  body text NOT NULL,
  -- The commit or URL it came from, when there is one.
  origin text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX robots_versions_in_force ON robots_versions (project_id, effective_at DESC, id DESC);
-- Where and how often the site's robots.txt is fetched (one per project), and when next.
CREATE TABLE robots_sources (
  project_id text PRIMARY KEY REFERENCES projects (id),
  url text NOT NULL,
  every_minutes integer NOT NULL CHECK (every_minutes > 0),
  next_fetch_at timestamptz NOT NULL
);
CREATE INDEX robots_sources_due ON robots_sources (next_fetch_at);
-- Every fetch and its outcome: a failure is recorded, never fatal.
CREATE TABLE robots_fetches (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id),
  fetched_at timestamptz NOT NULL,
  url text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('new_version', 'unchanged', 'failed')),
  status integer,
  error text,
  version_id integer REFERENCES robots_versions (id)
);
CREATE INDEX robots_fetches_recent ON robots_fetches (project_id, fetched_at DESC, id DESC);
-- AI agents' views (spoofed claims excluded) per day, agent, version in force (0: none known yet)
-- and verdict (rollup/robots-plan.ts: 0 unknown, 1 allowed, 2 disallowed, 3 a read of robots.txt).
CREATE TABLE analytics_daily_robots (
  project_id text NOT NULL,
  day integer NOT NULL,
  agent_id integer NOT NULL,
  version_id integer NOT NULL,
  verdict smallint NOT NULL,
  views bigint NOT NULL,
  PRIMARY KEY (project_id, day, agent_id, version_id, verdict)
);
-- The disallowed views per page: the drill-down to paths and rules, first and last seen.
CREATE TABLE analytics_robots_disallowed (
  project_id text NOT NULL,
  day integer NOT NULL,
  agent_id integer NOT NULL,
  path_id integer NOT NULL,
  version_id integer NOT NULL,
  views bigint NOT NULL,
  -- Epoch milliseconds.
  first_seen bigint NOT NULL,
  last_seen bigint NOT NULL,
  PRIMARY KEY (project_id, day, agent_id, path_id, version_id)
);
-- The same per calendar month (month_start: its first epoch day): a range's whole months cost a row per key.
CREATE TABLE analytics_monthly_robots_disallowed (
  project_id text NOT NULL,
  month_start integer NOT NULL,
  agent_id integer NOT NULL,
  path_id integer NOT NULL,
  version_id integer NOT NULL,
  views bigint NOT NULL,
  first_seen bigint NOT NULL,
  last_seen bigint NOT NULL,
  PRIMARY KEY (project_id, month_start, agent_id, path_id, version_id)
);
`,
  },
  {
    version: 35,
    name: "the docs repository's own checks as the last word: the commit a run pushed, what the checks on it say and the repair rounds they started, per job; the project's limit of such rounds; messages from the checks",
    sql: `
-- The branch's head as the last run that pushed reported it: the commit whose check runs, statuses or pipelines are the job's.
ALTER TABLE jobs ADD COLUMN head_sha text;
-- JobChecks as JSON (domain/jobs/checks.ts): state, the failing checks, the rounds they started, when the head was pushed; NULL: not watched.
ALTER TABLE jobs ADD COLUMN checks text;
-- A check event names a commit: the watched job whose head it is.
CREATE INDEX jobs_head_sha ON jobs (head_sha) WHERE head_sha IS NOT NULL;
-- 0..10, validated where it is set (shared/admin-schemas.ts); 0 turns watching the checks off.
ALTER TABLE projects ADD COLUMN check_repair_rounds integer NOT NULL DEFAULT 2;
ALTER TABLE job_messages DROP CONSTRAINT job_messages_source_check;
ALTER TABLE job_messages ADD CONSTRAINT job_messages_source_check CHECK (source IN ('api', 'dashboard', 'comment', 'automation', 'checks'));
`,
  },
  {
    version: 36,
    name: "robots.txt judged on the URL as fetched: an AI agent's path and query kept in the inbox until the view is counted, and the disallowed views kept per rule",
    sql: `
-- An AI agent's path and query as fetched, when not its page's path (analytics/ingest/ingest.ts); only until the rollup judges it.
ALTER TABLE analytics_inbox ADD COLUMN fetched text;
-- The line of the rule that disallowed the views (0: counted before lines were kept; the report reads the page's rule again).
ALTER TABLE analytics_robots_disallowed ADD COLUMN line integer NOT NULL DEFAULT 0;
ALTER TABLE analytics_robots_disallowed DROP CONSTRAINT analytics_robots_disallowed_pkey;
ALTER TABLE analytics_robots_disallowed ADD PRIMARY KEY (project_id, day, agent_id, path_id, version_id, line);
ALTER TABLE analytics_monthly_robots_disallowed ADD COLUMN line integer NOT NULL DEFAULT 0;
ALTER TABLE analytics_monthly_robots_disallowed DROP CONSTRAINT analytics_monthly_robots_disallowed_pkey;
ALTER TABLE analytics_monthly_robots_disallowed ADD PRIMARY KEY (project_id, month_start, agent_id, path_id, version_id, line);
`,
  },
  {
    version: 37,
    name: "a job says its forge: what a client says of it (a missing GitHub App, pull request or merge request) follows the job's repository",
    sql: `
-- The project's forge, kept on each job so every view of a job (the API's, a webhook's) carries it without a join.
ALTER TABLE jobs ADD COLUMN forge text NOT NULL DEFAULT 'github' CHECK (forge IN ('github', 'gitlab'));
UPDATE jobs SET forge = p.forge FROM projects p WHERE p.id = jobs.project_id AND p.forge <> 'github';
`,
  },
  {
    version: 38,
    name: "Slack threads as jobs: the server's Slack app, channels mapped to projects, a thread's job and its status message, and Slack's event ids taken once",
    sql: `
-- The server's one Slack app (docs/slack.md). Kept, not hashed: Inkwell calls Slack with the tokens and checks signatures with the secret.
CREATE TABLE slack_settings (
  -- The server has one Slack app: the row 'app' (domain/slack/slack-settings.ts reads and writes only it).
  id text PRIMARY KEY DEFAULT 'app',
  -- 'http': the Events API at PUBLIC_URL; 'socket': Socket Mode, for a server Slack cannot reach.
  mode text NOT NULL DEFAULT 'http' CHECK (mode IN ('http', 'socket')),
  bot_token text NOT NULL,
  signing_secret text NOT NULL,
  -- xapp-... with connections:write; only for Socket Mode.
  app_token text,
  -- Filled from auth.test when the token is saved: the bot's user (a mention of it addresses Inkwell) and its workspace.
  bot_user_id text,
  team_id text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- A channel whose mentions work on a project. Several projects on one channel: the bot asks which.
CREATE TABLE slack_channels (
  project_id text NOT NULL REFERENCES projects (id),
  channel_id text NOT NULL,
  -- Comma-separated Slack user group ids (S...); empty: every member of the channel may start and steer jobs.
  user_groups text NOT NULL DEFAULT '',
  -- true: any reply in a job's thread is a follow-up; false: only one that mentions the bot (or answers its question).
  any_reply boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, channel_id)
);
CREATE INDEX slack_channels_channel ON slack_channels (channel_id);
-- The thread that is a job: where its status message lives and what it has announced.
CREATE TABLE slack_threads (
  job_id text PRIMARY KEY REFERENCES jobs (id),
  project_id text NOT NULL REFERENCES projects (id),
  team_id text NOT NULL,
  channel_id text NOT NULL,
  thread_ts text NOT NULL,
  -- The one status message, edited with every step (NULL until posted).
  status_ts text,
  -- The steps the job's events announced, as JSON [{event, at, attempt?, outcome?}], in order.
  steps text NOT NULL DEFAULT '[]',
  -- How many of the steps that are said in the thread as replies (a failure, a question) were said.
  announced integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX slack_threads_thread ON slack_threads (team_id, channel_id, thread_ts);
-- Slack's event ids (and interaction ids) taken: a retried delivery is acknowledged and dropped. Kept for a day.
CREATE TABLE slack_events (
  event_id text PRIMARY KEY,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX slack_events_received ON slack_events (received_at);
ALTER TABLE job_messages DROP CONSTRAINT job_messages_source_check;
ALTER TABLE job_messages ADD CONSTRAINT job_messages_source_check CHECK (source IN ('api', 'dashboard', 'comment', 'automation', 'checks', 'slack'));
`,
  },
  {
    version: 39,
    name: "MCP authorization (OAuth 2.1): clients (registered, or their metadata documents cached), pending authorizations and their codes, grants beside API keys, access and refresh tokens kept as hashes",
    sql: `
-- A client of the authorization server: registered through DCR, or known by its metadata document (client_id is the document's https URL).
CREATE TABLE oauth_clients (
  client_id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('registered', 'metadata_document')),
  client_name text,
  -- JSON array of the redirect URIs; metadata: the client's whole metadata as JSON.
  redirect_uris text NOT NULL,
  metadata text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- A metadata document: when it was last read, and until when that reading is used.
  fetched_at timestamptz,
  expires_at timestamptz
);

-- A person's consent: a client may act on one project with these scopes (comma separated, as keys), for one resource (the MCP URL).
CREATE TABLE oauth_grants (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id),
  client_id text NOT NULL REFERENCES oauth_clients (client_id),
  scopes text NOT NULL,
  resource text NOT NULL,
  -- 'operator' or 'github:<login>': who approved.
  granted_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX oauth_grants_project ON oauth_grants (project_id, created_at);

-- An authorization request waiting for the person (code_hash NULL), then its one-time code (approved), then used.
CREATE TABLE oauth_authorizations (
  id text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients (client_id),
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  state text,
  -- Space separated, as the client asked.
  scopes text NOT NULL,
  resource text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  grant_id text REFERENCES oauth_grants (id),
  code_hash text,
  used_at timestamptz
);
CREATE UNIQUE INDEX oauth_authorizations_code ON oauth_authorizations (code_hash) WHERE code_hash IS NOT NULL;
CREATE INDEX oauth_authorizations_expiry ON oauth_authorizations (expires_at);

-- Access and refresh tokens as SHA-256 hashes (never the token); a refresh token is used once (used_at) and replaced.
CREATE TABLE oauth_tokens (
  token_hash text PRIMARY KEY,
  grant_id text NOT NULL REFERENCES oauth_grants (id),
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id, expires_at);
`,
  },
];
