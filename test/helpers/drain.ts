import type { TestServer } from "./server.js";

/** Waits until the task queue has nothing due (webhook effects, dispatches, comments). */
export async function drainTasks(t: TestServer, maxMs = 10_000): Promise<void> {
  const until = Date.now() + maxMs;
  for (;;) {
    await t.inkwell.services.tasks.idle();
    const [due] = await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tasks WHERE state = 'pending' AND next_try_at <= now() + interval '50 milliseconds'`);
    if ((due?.n ?? 0) === 0) return;
    if (Date.now() > until) throw new Error("tasks did not drain");
    t.inkwell.services.tasks.kick();
    await new Promise((r) => setTimeout(r, 20));
  }
}
