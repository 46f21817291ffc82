/**
 * The daemon's entry in the fleet's roster (rosterEntry.ts), written every half heartbeat so a live
 * daemon is never shown silent by jitter, and marked `stopped` at a clean stop.
 *
 * It stays out of trading's way: the beat is started on the clock and never awaited by the timer
 * (the next beat is scheduled whether Redis answered or not), a beat still in flight skips the next
 * one, and the client fails fast (fleetRedis.ts). Redis unreachable: the beat is skipped at debug —
 * the shared quota says once that Redis is gone, a warning per beat would only bury it — and the
 * entry is written again the moment the client is ready.
 *
 * Its own Redis connection: the quota's client carries every rate-limit slot, and a roster write
 * queued behind them (or the reverse) is a wait neither should have.
 */
import type { Redis } from 'ioredis';
import { type Clock, realTimeOf } from '../clock.js';
import { errorMessage } from '../errors.js';
import type { Logger } from '../ops/log.js';
import type { Secret } from '../secret.js';
import { TypedEmitter } from '../typedEmitter.js';
import { openFleetRedis } from './fleetRedis.js';
import { redisLabel } from './redisLabel.js';
import { encodeRosterEntry, ROSTER_TTL_MS, rosterDaemonId, rosterEntryKey, type RosterEntry, rosterKey, type RosterMode } from './rosterEntry.js';

/** What the entry is made of at each beat, read from the running daemon. */
export interface RosterSources {
  /** Today's figures, the open orders (one per placement), the last fill, as `/status` serves them. */
  figures(): Pick<RosterEntry, 'today' | 'openOrders' | 'lastFill'>;
  health(): RosterEntry['health'];
  control(): RosterEntry['control'];
}

export interface RosterPublisherOptions {
  readonly redis: Secret;
  readonly fleet: string;
  readonly heartbeatMs: number;
  /** The daemon's clock: beats are timed and stamped on its real-time base (a paper world's sped-up clock is not the operator's). */
  readonly clock: Clock;
  readonly log: Logger;
  readonly identity: Pick<RosterEntry, 'wallet' | 'version' | 'host' | 'pid' | 'opsUrl' | 'startedAt'> & { readonly mode: RosterMode };
  readonly sources: RosterSources;
}

export interface RosterPublisherEvents {
  /** A beat ended: written, or skipped (Redis unreachable, a source failed). */
  beat: { readonly ok: boolean; readonly at: number };
}

export interface RosterPublisher {
  readonly id: string;
  readonly events: TypedEmitter<RosterPublisherEvents>;
  /** Writes the entry now; resolves whether it was written. Never rejects. */
  beat(): Promise<boolean>;
  /** Settles once no write is in flight. */
  idle(): Promise<void>;
  /** A clean stop: no more beats, the entry marked `stopped` with the time (if Redis answers), the connection closed. Idempotent. */
  stop(): Promise<void>;
  /** Stops beating and drops the connection without a word, as a killed process would (tests). */
  detach(): void;
}

export function startRosterPublisher(options: RosterPublisherOptions): RosterPublisher {
  const { fleet, heartbeatMs, log, identity, sources } = options;
  const clock = realTimeOf(options.clock);
  const id = rosterDaemonId(identity.mode, identity.wallet);
  const key = rosterEntryKey(fleet, id);
  const zkey = rosterKey(fleet);
  const label = redisLabel(options.redis);
  const events = new TypedEmitter<RosterPublisherEvents>();
  const redis: Redis = openFleetRedis({ url: options.redis });
  // ioredis reports every failed connection attempt as an `error` event: without a listener it would throw.
  redis.on('error', (error: Error) => log.debug({ redis: label, err: errorMessage(error) }, 'fleet roster: Redis unreachable'));
  const abort = new AbortController();
  let inFlight: Promise<boolean> | null = null;
  let ended = false;

  const write = async (fields: Partial<RosterEntry>, at: number): Promise<void> => {
    const answers = await redis
      .multi()
      .hset(key, encodeRosterEntry(fields))
      .pexpire(key, ROSTER_TTL_MS)
      .zadd(zkey, at, id)
      // Ids whose hash has long expired leave the set too, and the set goes with the last daemon.
      .zremrangebyscore(zkey, '-inf', at - ROSTER_TTL_MS)
      .pexpire(zkey, ROSTER_TTL_MS)
      .exec();
    // A command refused inside the transaction (a key of another type) is in its answer, not thrown.
    const refused = answers?.find(([error]) => error !== null)?.[0];
    if (refused) throw refused;
  };

  const entryAt = (at: number, stopped: boolean): RosterEntry => ({
    id,
    ...identity,
    heartbeatMs,
    beatAt: at,
    state: stopped ? 'stopped' : 'running',
    stoppedAt: stopped ? at : null,
    ...sources.figures(),
    health: sources.health(),
    control: sources.control(),
  });

  const beatOnce = async (): Promise<boolean> => {
    const at = clock.now();
    try {
      // Nowhere to write: the figures are not even read (the write would fail at once anyway).
      if (redis.status !== 'ready') throw new Error(`not connected (${redis.status})`);
      await write(entryAt(at, false), at);
      events.emit('beat', { ok: true, at });
      return true;
    } catch (error) {
      log.debug({ redis: label, err: errorMessage(error) }, 'fleet roster: heartbeat skipped');
      events.emit('beat', { ok: false, at });
      return false;
    }
  };

  const beat = (): Promise<boolean> => {
    if (ended) return Promise.resolve(false);
    // A beat still waiting on Redis is the beat: a second would only queue behind it.
    if (inFlight !== null) return inFlight;
    const pending = beatOnce().finally(() => {
      if (inFlight === pending) inFlight = null;
    });
    inFlight = pending;
    return pending;
  };

  // Back after an outage (or connected for the first time): say so at once rather than at the next beat.
  redis.on('ready', () => void beat());
  void (async () => {
    while (!abort.signal.aborted) {
      void beat();
      try {
        await clock.sleep(heartbeatMs / 2, abort.signal);
      } catch {
        return;
      }
    }
  })();

  const end = (): void => {
    ended = true;
    abort.abort(new Error('roster publisher stopped'));
  };

  let stopping: Promise<void> | undefined;
  return {
    id,
    events,
    beat,
    idle: async () => {
      await inFlight;
    },
    stop: () =>
      (stopping ??= (async () => {
        if (ended) return;
        end();
        await inFlight;
        const at = clock.now();
        try {
          // The whole entry, not just the mark: a Redis restarted since the last beat holds nothing to mark.
          let entry: Partial<RosterEntry>;
          try {
            entry = entryAt(at, true);
          } catch {
            entry = { state: 'stopped', stoppedAt: at, beatAt: at };
          }
          await write(entry, at);
        } catch (error) {
          log.debug({ redis: label, err: errorMessage(error) }, 'fleet roster: the stop could not be marked');
        }
        redis.disconnect();
      })()),
    detach: () => {
      end();
      redis.disconnect();
    },
  };
}
