/**
 * One daemon's entry in the fleet's roster, as it is kept in Redis: where it lives, what it is, and
 * what it made today. The daemon writes it (rosterPublisher.ts), `jupbot fleet status` reads it
 * (rosterReader.ts); this file is the one place both agree on the keys and the fields.
 *
 * Layout under `jupbot:fleet:<name>:` — `roster`, a sorted set of daemon ids scored by their last
 * heartbeat; `daemon:<id>`, a hash per daemon. Scalars are stored as text, the nested figures as
 * JSON, so `redis-cli HGETALL` stays readable. Both keys expire (ROSTER_TTL_MS after the last word),
 * so a host that vanished leaves nothing behind for longer than a day.
 *
 * Nothing secret goes in: the wallet's public key, the ops URL, figures and reasons already shown on
 * `/status` and `/readyz`.
 */
import { z } from 'zod';

/** How long an entry outlives its last heartbeat (or its stop): a day, then Redis forgets it. */
export const ROSTER_TTL_MS = 24 * 60 * 60 * 1000;

export type RosterMode = 'paper' | 'live' | 'rehearsal';

/** The sorted set of the fleet's daemon ids, scored by last heartbeat (ms). */
export function rosterKey(fleet: string): string {
  return `jupbot:fleet:${fleet}:roster`;
}

/** One daemon's hash. */
export function rosterEntryKey(fleet: string, id: string): string {
  return `jupbot:fleet:${fleet}:daemon:${id}`;
}

/** Stable for a wallet across restarts and hosts (one daemon per wallet); a rehearsal of a live wallet is another daemon. */
export function rosterDaemonId(mode: RosterMode, wallet: string): string {
  return `${mode}-${wallet}`;
}

const lastFillSchema = z.object({
  at: z.string(),
  strategy: z.string().nullable(),
  /** `sell 0.5 SOL for 71.2 USDC` */
  summary: z.string(),
});

const controlSchema = z.object({
  halted: z.object({ since: z.number(), reason: z.string(), by: z.string() }).nullable(),
  paused: z.array(z.string()),
});

export const rosterEntrySchema = z.object({
  id: z.string(),
  wallet: z.string(),
  mode: z.enum(['paper', 'live', 'rehearsal']),
  version: z.string(),
  host: z.string(),
  pid: z.number().int(),
  opsUrl: z.string(),
  startedAt: z.number(),
  /** The daemon's `fleet.heartbeat`: silent once this long passes without a word. */
  heartbeatMs: z.number().positive(),
  /** Wall time of its last word (ms). */
  beatAt: z.number(),
  state: z.enum(['running', 'stopped']),
  stoppedAt: z.number().nullable(),
  /** `/status`'s `today`: realized P&L since 00:00 UTC of the day `since` names. */
  today: z.object({ since: z.string(), realizedUsd: z.string(), trades: z.number().int() }),
  /** `/status`'s `orders`: one per placement. */
  openOrders: z.number().int(),
  lastFill: lastFillSchema.nullable(),
  /** `/readyz`: ready, or the failing checks as one line. */
  health: z.object({ ready: z.boolean(), reason: z.string().nullable() }),
  control: controlSchema,
});

export type RosterEntry = z.infer<typeof rosterEntrySchema>;

const JSON_FIELDS = new Set<keyof RosterEntry>(['today', 'lastFill', 'health', 'control', 'stoppedAt']);
const NUMBER_FIELDS = new Set<keyof RosterEntry>(['pid', 'startedAt', 'heartbeatMs', 'beatAt', 'openOrders']);

/** The hash's fields: text for scalars, JSON for the nested figures. */
export function encodeRosterEntry(entry: Partial<RosterEntry>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (value === undefined) continue;
    out[key] = JSON_FIELDS.has(key as keyof RosterEntry) || typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return out;
}

/** The entry back from its hash, or why it cannot be read (a daemon of another version, a hand edit). */
export function decodeRosterEntry(fields: Readonly<Record<string, string>>): { entry: RosterEntry } | { problem: string } {
  const raw: Record<string, unknown> = {};
  try {
    for (const [key, value] of Object.entries(fields)) {
      const field = key as keyof RosterEntry;
      raw[key] = JSON_FIELDS.has(field) ? (JSON.parse(value) as unknown) : NUMBER_FIELDS.has(field) ? Number(value) : value;
    }
  } catch (error) {
    return { problem: `a field is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = rosterEntrySchema.safeParse(raw);
  if (parsed.success) return { entry: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: `${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}` };
}

export type RosterState = 'ok' | 'unhealthy' | 'stopped' | 'silent';

/**
 * What the roster says of a daemon at `now`: `stopped` after a clean stop; `silent` once its own
 * heartbeat interval has passed without a word (it beats every half interval, so a live one never
 * gets there by jitter, and one killed shows silent within one interval); else what `/readyz` said.
 */
export function rosterState(entry: RosterEntry, now: number): { state: RosterState; reason: string | null } {
  if (entry.state === 'stopped') return { state: 'stopped', reason: null };
  if (now - entry.beatAt >= entry.heartbeatMs) return { state: 'silent', reason: null };
  if (!entry.health.ready) return { state: 'unhealthy', reason: entry.health.reason ?? 'not ready' };
  return { state: 'ok', reason: null };
}
