import type { PageFrame } from "./layout.js";

/** Fixed texts for ?notice=…, so no page reflects text from the URL. */
const NOTICES = {
  "signed-out": { kind: "ok", text: "You are signed out." },
  "key-revoked": { kind: "ok", text: "The key is revoked: requests with it now get 401." },
  "grant-revoked": { kind: "ok", text: "The assistant's access is revoked: its tokens now get 401, and it must ask again." },
  "job-created": { kind: "ok", text: "Job started. This page follows its progress." },
  "message-sent": { kind: "ok", text: "Follow-up sent." },
  "plan-approved": { kind: "ok", text: "Approved: the agent carries out the plan on the job's branch." },
  "job-cancelled": { kind: "ok", text: "Cancelled: the job is failed, the run Inkwell started is cancelled, and a runner still working stops at its next heartbeat without pushing. A follow-up continues on the same branch." },
} as const satisfies Record<string, NonNullable<PageFrame["notice"]>>;

export type Notice = (typeof NOTICES)[keyof typeof NOTICES];

/** The notice a redirect asked for (`?notice=key-revoked`); null for none or an unknown one. */
export const noticeOf = (url: URL): Notice | null => {
  const name = url.searchParams.get("notice") ?? "";
  // Own keys only: `?notice=toString` must not find Object.prototype's.
  return Object.hasOwn(NOTICES, name) ? NOTICES[name as keyof typeof NOTICES] : null;
};
