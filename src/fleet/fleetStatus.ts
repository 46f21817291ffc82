/**
 * `jupbot fleet status`'s document: every daemon of the roster judged at the reader's `now`
 * (rosterEntry.ts `rosterState`), and the fleet's total — today's realized P&L and the open orders
 * summed exactly, in fixed point. The `--json` output is this document as it is (docs/operations.md
 * lists its keys; they only ever gain new ones).
 */
import { type Fixed, formatFixed, parseFixed } from '../money/decimal.js';
import { DAY_MS } from '../strategies/snapshot.js';
import { type RosterEntry, type RosterState, rosterState } from './rosterEntry.js';
import type { RosterReading } from './rosterReader.js';

export interface FleetDaemonJson {
  readonly id: string;
  readonly state: RosterState;
  /** Why it is unhealthy (what `/readyz` says fails); null otherwise. */
  readonly reason: string | null;
  readonly wallet: string;
  readonly mode: RosterEntry['mode'];
  readonly host: string;
  readonly pid: number;
  readonly version: string;
  readonly opsUrl: string;
  readonly startedAt: string;
  readonly heartbeatMs: number;
  readonly lastHeartbeat: string;
  readonly heartbeatAgeMs: number;
  readonly stoppedAt: string | null;
  /** `/status`'s `today` as of the last heartbeat; `current` false when that was another UTC day than the reader's. */
  readonly today: RosterEntry['today'] & { readonly current: boolean };
  readonly openOrders: number;
  readonly lastFill: RosterEntry['lastFill'];
  readonly control: RosterEntry['control'];
}

export interface FleetStatusJson {
  readonly fleet: string;
  /** The Redis it was read from, without user or password. */
  readonly redis: string;
  readonly at: string;
  readonly daemons: readonly FleetDaemonJson[];
  /** Entries that could not be read, with why. */
  readonly unreadable: RosterReading['unreadable'];
  readonly total: {
    readonly daemons: number;
    readonly ok: number;
    readonly unhealthy: number;
    readonly stopped: number;
    readonly silent: number;
    /** Sum of today's realized P&L over the daemons whose figures are of the reader's UTC day. */
    readonly realizedUsd: string;
    /** Daemons left out of `realizedUsd`: their last figures are of another day. */
    readonly notToday: number;
    readonly openOrders: number;
    /** `fleet.size` of the config it was read with: how many daemons should be listed. */
    readonly expected: number;
    /** Fewer listed than expected: never registered, or their entries went with Redis's data. */
    readonly missing: number;
  };
}

/** A signed decimal as `/status` writes it (`-12.5`), exactly. */
function signedFixed(text: string): Fixed | undefined {
  const negative = text.startsWith('-');
  const value = parseFixed(negative ? text.slice(1) : text);
  return value === undefined ? undefined : negative ? -value : value;
}

const isoOf = (ms: number): string => new Date(ms).toISOString();

export function fleetStatus(
  reading: RosterReading,
  context: { readonly fleet: string; readonly redis: string; readonly now: number; readonly size: number },
): FleetStatusJson {
  const { now } = context;
  const today = isoOf(Math.floor(now / DAY_MS) * DAY_MS);
  const daemons = [...reading.entries]
    .sort((a, b) => a.host.localeCompare(b.host) || a.mode.localeCompare(b.mode) || a.wallet.localeCompare(b.wallet))
    .map((e): FleetDaemonJson => {
      const { state, reason } = rosterState(e, now);
      return {
        id: e.id,
        state,
        reason,
        wallet: e.wallet,
        mode: e.mode,
        host: e.host,
        pid: e.pid,
        version: e.version,
        opsUrl: e.opsUrl,
        startedAt: isoOf(e.startedAt),
        heartbeatMs: e.heartbeatMs,
        lastHeartbeat: isoOf(e.beatAt),
        heartbeatAgeMs: now - e.beatAt,
        stoppedAt: e.stoppedAt === null ? null : isoOf(e.stoppedAt),
        today: { ...e.today, current: e.today.since === today },
        openOrders: e.openOrders,
        lastFill: e.lastFill,
        control: e.control,
      };
    });
  let realized = 0n;
  let notToday = 0;
  for (const d of daemons) {
    const value = d.today.current ? signedFixed(d.today.realizedUsd) : undefined;
    if (value === undefined) notToday += 1;
    else realized += value;
  }
  const count = (state: RosterState): number => daemons.filter((d) => d.state === state).length;
  return {
    fleet: context.fleet,
    redis: context.redis,
    at: isoOf(now),
    daemons,
    unreadable: reading.unreadable,
    total: {
      daemons: daemons.length,
      ok: count('ok'),
      unhealthy: count('unhealthy'),
      stopped: count('stopped'),
      silent: count('silent'),
      realizedUsd: formatFixed(realized),
      notToday,
      openOrders: daemons.reduce((sum, d) => sum + d.openOrders, 0),
      expected: context.size,
      missing: Math.max(0, context.size - daemons.length),
    },
  };
}
