import type { Queryable } from "../../store/db.js";
import type { AgentMask, ChunkAgentMasks } from "./agent-plan.js";
import type { ChunkMasks, ChunkView, VisitorMask } from "./plan-types.js";
import { recordset } from "../recordset.js";

/**
 * Everything the rollup remembers of one visitor in one salt window, in one row: its day masks on
 * the site, each page and each group (sections, referral groups), its masks per format (the
 * pairs that read other formats than html), and its masks as an agent. A chunk reads the rows of
 * its visitors once and writes back the ones it changed, so a view costs one row of the store
 * whatever number of masks it widens (docs/architecture.md, "Analytics"). The rows of a visitor
 * are in one rollup partition, which one worker holds, so reading and writing them back is safe.
 *
 * Each column is a run of fixed-width records of big-endian int32 (what `int4send` writes, so the
 * migration that built the rows from the former mask tables is plain SQL), by key:
 * - `masks`: path id, human, ai, bot, formats (see VisitorMask);
 * - `format_masks`: path id, format, human, ai, bot;
 * - `agent_masks`: agent id, path id, days.
 */

const MASK_FIELDS = 5;
const FORMAT_MASK_FIELDS = 5;
const AGENT_MASK_FIELDS = 3;
const INT32 = 4;

/** Stored masks of one visitor: [human, ai, bot, formats] by path id; [human, ai, bot] by (path id, format); days by (agent id, path id). */
interface VisitorState {
  projectId: string;
  windowStart: number;
  visitor: string;
  masks: Map<number, [number, number, number, number]>;
  formatMasks: Map<number, [number, number, number]>;
  agentMasks: Map<string, number>;
  changed: boolean;
}

interface StateRow {
  project_id: string;
  window_start: number;
  visitor: string;
  masks: Uint8Array;
  format_masks: Uint8Array;
  agent_masks: Uint8Array;
}

const stateKey = (of: { projectId: string; windowStart: number; visitor: string }) => `${of.projectId}\n${of.windowStart}\n${of.visitor}`;
/** Formats are small codes (read-format.ts), so a (path, format) pair is one safe integer. */
const formatKey = (pathId: number, format: number) => pathId * 16 + format;
const agentKey = (agentId: number, pathId: number) => `${agentId}:${pathId}`;

/** The stored states of a chunk's visitors: what the plans read as "before", and what the chunk's masks are ORed into. */
export class VisitorStates {
  private constructor(private readonly states: Map<string, VisitorState>) {}

  /** Reads the states of every visitor in `views` (one statement); a visitor without one starts empty. */
  static async read(tx: Queryable, views: readonly ChunkView[]): Promise<VisitorStates> {
    const states = new Map<string, VisitorState>();
    for (const { projectId, windowStart, visitor } of views) {
      const key = stateKey({ projectId, windowStart, visitor });
      if (!states.has(key)) states.set(key, { projectId, windowStart, visitor, masks: new Map(), formatMasks: new Map(), agentMasks: new Map(), changed: false });
    }
    if (states.size === 0) return new VisitorStates(states);
    const rows = await tx.query<StateRow>(
      `SELECT s.project_id, s.window_start, s.visitor::text AS visitor, s.masks, s.format_masks, s.agent_masks
       FROM json_to_recordset($1::json) AS k (p text, w int, v bigint)
       JOIN analytics_visitor_states s ON s.project_id = k.p AND s.window_start = k.w AND s.visitor = k.v`,
      [recordset([...states.values()].map((s) => ({ p: s.projectId, w: s.windowStart, v: s.visitor })))],
    );
    for (const row of rows) {
      const state = states.get(stateKey({ projectId: row.project_id, windowStart: row.window_start, visitor: row.visitor }));
      if (state) decodeInto(state, row);
    }
    return new VisitorStates(states);
  }

  /** The stored masks (site, pages, groups) of the chunk's mask keys, as they were; keys without one are absent. */
  masksOf(masks: ChunkMasks): VisitorMask[] {
    const stored: VisitorMask[] = [];
    for (const mask of masks.values()) {
      const found = this.#state(mask).masks.get(mask.pathId);
      if (found) stored.push({ projectId: mask.projectId, windowStart: mask.windowStart, pathId: mask.pathId, visitor: mask.visitor, human: found[0], ai: found[1], bot: found[2], formats: found[3] });
    }
    return stored;
  }

  /** The stored format masks of these (page, visitor) pairs, every format. */
  formatMasksOf(pairs: readonly VisitorMask[]): VisitorMask[] {
    const stored: VisitorMask[] = [];
    for (const pair of pairs) {
      for (const [key, [human, ai, bot]] of this.#state(pair).formatMasks) {
        const pathId = Math.floor(key / 16);
        if (pathId === pair.pathId) stored.push({ projectId: pair.projectId, windowStart: pair.windowStart, format: key % 16, pathId, visitor: pair.visitor, human, ai, bot });
      }
    }
    return stored;
  }

  /** The stored agent masks of the chunk's agent mask keys, as they were. */
  agentMasksOf(masks: ChunkAgentMasks): AgentMask[] {
    const stored: AgentMask[] = [];
    for (const mask of masks.values()) {
      const days = this.#state(mask).agentMasks.get(agentKey(mask.agentId, mask.pathId));
      if (days !== undefined) stored.push({ ...mask, days });
    }
    return stored;
  }

  /** ORs masks (site, pages, groups) into the states. */
  orMasks(masks: ChunkMasks): void {
    for (const mask of masks.values()) {
      const state = this.#state(mask);
      const old = state.masks.get(mask.pathId) ?? [0, 0, 0, 0];
      const now: [number, number, number, number] = [old[0] | mask.human, old[1] | mask.ai, old[2] | mask.bot, old[3] | (mask.formats ?? 0)];
      if (now.some((value, i) => value !== old[i])) {
        state.masks.set(mask.pathId, now);
        state.changed = true;
      }
    }
  }

  /** ORs format masks into the states. */
  orFormatMasks(masks: readonly VisitorMask[]): void {
    for (const mask of masks) {
      const state = this.#state(mask);
      const key = formatKey(mask.pathId, mask.format ?? 0);
      const old = state.formatMasks.get(key) ?? [0, 0, 0];
      const now: [number, number, number] = [old[0] | mask.human, old[1] | mask.ai, old[2] | mask.bot];
      if (now.some((value, i) => value !== old[i])) {
        state.formatMasks.set(key, now);
        state.changed = true;
      }
    }
  }

  /** ORs agent masks into the states. */
  orAgentMasks(masks: ChunkAgentMasks): void {
    for (const mask of masks.values()) {
      const state = this.#state(mask);
      const key = agentKey(mask.agentId, mask.pathId);
      const old = state.agentMasks.get(key) ?? 0;
      if ((old | mask.days) !== old) {
        state.agentMasks.set(key, old | mask.days);
        state.changed = true;
      }
    }
  }

  /** Writes the states that changed back, in one statement. */
  async write(tx: Queryable): Promise<void> {
    const changed = [...this.states.values()].filter((state) => state.changed);
    if (changed.length === 0) return;
    await tx.query(
      `INSERT INTO analytics_visitor_states AS t (project_id, window_start, visitor, masks, format_masks, agent_masks)
       SELECT r.p, r.w, r.v, decode(r.m, 'base64'), decode(r.f, 'base64'), decode(r.a, 'base64')
       FROM json_to_recordset($1::json) AS r (p text, w int, v bigint, m text, f text, a text)
       ON CONFLICT (project_id, window_start, visitor) DO UPDATE SET masks = excluded.masks, format_masks = excluded.format_masks, agent_masks = excluded.agent_masks`,
      [recordset(changed.map(encode))],
    );
  }

  #state(of: { projectId: string; windowStart: number; visitor: string }): VisitorState {
    const state = this.states.get(stateKey(of));
    if (!state) throw new Error(`visitor ${of.visitor} of window ${of.windowStart} was not read for this chunk`);
    return state;
  }
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function decodeInto(state: VisitorState, row: StateRow): void {
  const masks = view(row.masks);
  for (let at = 0; at < masks.byteLength; at += MASK_FIELDS * INT32) {
    state.masks.set(masks.getInt32(at), [masks.getInt32(at + 4), masks.getInt32(at + 8), masks.getInt32(at + 12), masks.getInt32(at + 16)]);
  }
  const formats = view(row.format_masks);
  for (let at = 0; at < formats.byteLength; at += FORMAT_MASK_FIELDS * INT32) {
    state.formatMasks.set(formatKey(formats.getInt32(at), formats.getInt32(at + 4)), [formats.getInt32(at + 8), formats.getInt32(at + 12), formats.getInt32(at + 16)]);
  }
  const agents = view(row.agent_masks);
  for (let at = 0; at < agents.byteLength; at += AGENT_MASK_FIELDS * INT32) {
    state.agentMasks.set(agentKey(agents.getInt32(at), agents.getInt32(at + 4)), agents.getInt32(at + 8));
  }
}

/** Records in key order, so equal states are equal bytes. */
function encode(state: VisitorState): { p: string; w: number; v: string; m: string; f: string; a: string } {
  const masks = Buffer.alloc(state.masks.size * MASK_FIELDS * INT32);
  let at = 0;
  for (const pathId of [...state.masks.keys()].sort((a, b) => a - b)) {
    at = masks.writeInt32BE(pathId, at);
    for (const value of state.masks.get(pathId)!) at = masks.writeInt32BE(value, at);
  }
  const formats = Buffer.alloc(state.formatMasks.size * FORMAT_MASK_FIELDS * INT32);
  at = 0;
  for (const key of [...state.formatMasks.keys()].sort((a, b) => a - b)) {
    at = formats.writeInt32BE(Math.floor(key / 16), at);
    at = formats.writeInt32BE(key % 16, at);
    for (const value of state.formatMasks.get(key)!) at = formats.writeInt32BE(value, at);
  }
  const agentEntries = [...state.agentMasks].map(([key, days]) => [...key.split(":").map(Number), days] as [number, number, number]);
  agentEntries.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const agents = Buffer.alloc(agentEntries.length * AGENT_MASK_FIELDS * INT32);
  at = 0;
  for (const record of agentEntries) for (const value of record) at = agents.writeInt32BE(value, at);
  return { p: state.projectId, w: state.windowStart, v: state.visitor, m: masks.toString("base64"), f: formats.toString("base64"), a: agents.toString("base64") };
}
