import type { CommandContext } from "../command-context.js";
import { JOB_TRIGGER_TYPES, WEBHOOK_EVENTS } from "../../shared/job-vocabulary.js";
import { LOG_FORMATS } from "../logs/log-format-names.js";
import { KEY_SCOPES } from "../../shared/key-scopes.js";

// Every command's line in `inkwell --help`, apart from the code that runs it: the help, an unknown
// command's message and a usage error's hint need these words only, so they load no command module
// (each of which loads what its requests and tables need). A command module's type names its actions
// from here, so the two cannot drift apart.

const FILTERS = "[--path-prefix /docs] [--channel ai|search|social|direct|other] [--compare]";

export const COMMAND_USAGE = {
  projects: {
    create: "projects create <owner/repo|url> [--ref BRANCH] [--name NAME] [--model MODEL] [--rate-limit N]",
    "connect-gitlab": "projects connect-gitlab <group/project|url|id> --gitlab-url URL [--gitlab-token TOKEN (or INKWELL_GITLAB_TOKEN)] [--ref BRANCH] [--name NAME] [--model MODEL] [--rate-limit N]",
    list: "projects list",
    get: "projects get <projectId>",
    update: "projects update <projectId> [--allowed-origin ORIGIN]… [--no-allowed-origins] [--salt-window day|week|month] [--markdown-as-page true|false] [--allowed-model MODEL]… [--no-allowed-models] [--plan-approval|--no-plan-approval] [--wait-limit-days N] [--check-repair-rounds N]",
  },
  keys: {
    create: `keys create --project ID [--name NAME] [--scope ${KEY_SCOPES.join("|")}]…`,
    list: "keys list --project ID",
    revoke: "keys revoke --project ID <keyId>",
    grants: "keys grants --project ID",
    "revoke-grant": "keys revoke-grant --project ID <grantId>",
  },
  webhooks: {
    create: `webhooks create --project ID <url> [--event ${WEBHOOK_EVENTS.join("|")}]… [--format standard|slack]`,
    list: "webhooks list --project ID",
    delete: "webhooks delete --project ID <webhookId>",
    deliveries: "webhooks deliveries --project ID <webhookId> [--limit N]",
    redeliver: "webhooks redeliver --project ID <webhookId> <deliveryId>",
  },
  slack: {
    status: "slack status",
    manifest: "slack manifest [--mode http|socket]   the Slack app manifest to create the app from",
    channels: "slack channels --project ID",
    map: "slack map --project ID <channelId> [--group USERGROUP_ID]… [--any-reply]   a mention in the channel starts a job on the project",
    unmap: "slack unmap --project ID <channelId>",
  },
  automations: {
    create: "automations create --project ID (--source owner/repo|group/project [--label L] [--path GLOB]… [--no-follow-ups] | --issues [--label L] [--no-mention] | --schedule CRON) [--instruction TEXT]",
    list: "automations list --project ID",
    pause: "automations pause --project ID <automationId>",
    resume: "automations resume --project ID <automationId>",
    run: "automations run --project ID <automationId>",
    delete: "automations delete --project ID <automationId>",
  },
  robots: {
    add: "robots add --project ID <FILE|-> [--effective-at ISO-TIME]   a robots.txt version (default: in force from now)",
    source: "robots source --project ID [<url> [--every MINUTES] | --remove]   fetch the site's robots.txt on a schedule; without a URL, the setting and latest fetches",
  },
  agents: {
    ranges: "agents ranges",
    refresh: "agents refresh   (the server fetches each list from its operator; needs internet)",
  },
  jobs: {
    create: "jobs create <prompt…>            (or --prompt-file FILE, or - to read stdin) [--idempotency-key K] [--plan-approval] [--max-questions N]   --plan-approval: plan first, wait for approval; --max-questions: questions the agent may ask per run (default 1)",
    get: "jobs get <jobId>",
    message: "jobs message <jobId> <prompt…>   (or --prompt-file FILE, or -)",
    approve: "jobs approve <jobId>             carries out the plan the job waits with (to change the plan, send a message)",
    cancel: "jobs cancel <jobId>              stops an active job (it becomes failed); a finished job is left as it is",
    runs: "jobs runs <jobId>                each run: trigger, times, outcome, tokens",
    impact: "jobs impact <jobId> [--days 7|14|28] [--csv]   each changed page's readers before and after the merge, beside the site",
    ranking: "jobs ranking [--days 7|14|28] [--order aiFailures|aiReads|humanVisitors] [--from DATE] [--to DATE] [--limit N] [--offset N] [--csv]   merged jobs by what they changed for readers",
    list: `jobs list [--status active|completed|failed|archived] [--trigger ${JOB_TRIGGER_TYPES.join("|")}] [--limit N] [--offset N]`,
    watch: "jobs watch <jobId> [--interval SECONDS]   shows a plan or question the job waits with; exits 0 when completed/archived, 3 when failed",
  },
  analytics: {
    visitors: `analytics visitors [--from DAY] [--through DAY | --to DAY] [--format html|markdown|llms.txt|text] ${FILTERS} [--limit N] [--offset N] [--all | --csv]`,
    views: `analytics views    [--from DAY] [--through DAY | --to DAY] [--format html|markdown|llms.txt|text] ${FILTERS} [--limit N] [--offset N] [--all | --csv]`,
    agents: "analytics agents   [--from DAY] [--through DAY | --to DAY] [--category assistant|crawler|search] [--path-prefix /docs] [--compare] [--limit N] [--offset N] [--all | --csv]",
    "agent-pages": "analytics agent-pages <AGENT> [--from DAY] [--through DAY | --to DAY] [--limit N] [--offset N] [--all | --csv]",
    failures: "analytics failures [--from DAY] [--through DAY | --to DAY] [--limit N] [--offset N] [--all | --csv]",
    robots: "analytics robots   [--from DAY] [--through DAY | --to DAY] [--by agent|operator|page|version] [--agent NAME] [--limit N] [--offset N] [--all | --csv]   AI agents' views judged against the robots.txt in force then",
    "robots-versions": "analytics robots-versions [--limit N] [--offset N]",
    timeseries: "analytics timeseries [--from DAY] [--through DAY | --to DAY] [--interval day|week|month] [--metric visitors|views] [--path-prefix /docs] [--channel ai|search|social|direct|other] [--compare] [--csv]",
    referrers: "analytics referrers [--from DAY] [--through DAY | --to DAY] [--channel CHANNEL] [--pages] [--limit N] [--offset N] [--all | --csv]",
    import: `analytics import --format ${LOG_FORMATS.join("|")} [--log-format STRING] [--field NAME=KEY]… [--max-rejected N|P%] [--follow [--state FILE] [--interval SECONDS]] <FILE|->`,
  },
  store: {
    backup: "store backup <file> [--data-dir DIR] [--force]           a consistent snapshot, taken by the running service",
    restore: "store restore <file> [--data-dir DIR] [--force]          service stopped; --force moves the current store aside",
    copy: "store copy --to postgres://… [--data-dir DIR] [--force]  service stopped; PGlite into PostgreSQL, counts checked",
  },
} as const;

export type NounName = keyof typeof COMMAND_USAGE;

/** Resolves to the exit code; nothing means 0. */
export type CommandRun = (ctx: CommandContext) => Promise<number | void>;

/** A noun's module: a run for each of its actions, no more and no fewer. */
export type NounRuns<Noun extends NounName> = Record<keyof (typeof COMMAND_USAGE)[Noun], CommandRun>;

/** The help groups nouns by the credential they need; a noun missing here can be neither run nor seen. */
export const HELP_GROUPS: readonly { heading: string; nouns: readonly NounName[] }[] = [
  { heading: "Operator (token: --token or INKWELL_ADMIN_TOKEN):", nouns: ["projects", "keys", "webhooks", "slack", "automations", "agents", "robots"] },
  { heading: "Agent jobs (key: --key or INKWELL_API_KEY; project: --project or INKWELL_PROJECT):", nouns: ["jobs"] },
  { heading: "Analytics (key and project as above; --from and --through are included, --to is excluded like the API's dateTo):", nouns: ["analytics"] },
  { heading: "Store (on the service's machine; --data-dir or DATA_DIR, default ./data; backup takes the operator token):", nouns: ["store"] },
];

export const NOUN_NAMES: readonly NounName[] = HELP_GROUPS.flatMap((group) => group.nouns);

/** The commands part of `inkwell --help`: each group's heading, then its commands' usage lines. */
export const COMMANDS_HELP = HELP_GROUPS.map(({ heading, nouns }) =>
  [heading, ...nouns.flatMap((noun) => Object.values(COMMAND_USAGE[noun]).map((usage) => `  ${usage}`))].join("\n"),
).join("\n\n");
