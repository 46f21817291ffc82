/**
 * The fleet's shared rate-limit quota: one {@link FleetQuota} per daemon (one Redis connection), one
 * gate per Jupiter bucket. While Redis answers, the gates admit against the whole fleet's windows
 * (quotaScripts.ts); while it does not, each gate keeps to this daemon's share from its own record,
 * which it keeps in both modes for exactly that moment and to re-seed Redis when it returns.
 *
 * Modes: `starting` (not connected yet: requests wait for the first connection or its failure), `shared`, `local` (Redis lost:
 * logged once at warn), `closed`. Back from `local`, this daemon first writes its own live entries
 * into Redis, then switches back (logged once at info). Each transition is also an event.
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import type { Bucket } from '../jupiter/bucket.js';
import { Priority, SlidingWindow, type WindowSlot } from '../jupiter/limiter.js';
import type { SharedGate, SharedGrant, SharedQuota, SharedSlot } from '../jupiter/sharedGate.js';
import type { Logger } from '../ops/log.js';
import type { Random } from '../random.js';
import { TypedEmitter } from '../typedEmitter.js';
import { quotaKeyId, quotaKeys, type QuotaKeys } from './quotaKeys.js';
import { fleetSizeProblem, quotaSplit, type QuotaSplit } from './quotaSplit.js';
import { acquireScript, defineQuotaScripts, endScript, seedScript } from './quotaScripts.js';

export interface FleetQuotaEvents {
  /** Redis stopped answering: each gate keeps to its share. */
  lost: { reason: string };
  /** Redis answers again: `reseeded` own entries were written back first. */
  restored: { reseeded: number };
  /** A gate's request was admitted (by the fleet or, `shared: false`, locally). For tests and metrics. */
  admitted: { bucket: Bucket; priority: number; shared: boolean };
}

export interface FleetQuotaOptions {
  /** The fleet's client (openFleetRedis); the quota owns it and disconnects it on close. */
  readonly redis: Redis;
  /** What logs may say about Redis (redisLabel). */
  readonly label: string;
  /** The Jupiter API key (only its hash reaches Redis); undefined when keyless. */
  readonly apiKey: string | undefined;
  /** Stable per daemon across restarts (the wallet's public key). */
  readonly daemonId: string;
  /** fleet.size: how many daemons share the key. */
  readonly size: number;
  /** How long an entry counts while its exchange is in flight, beyond the window: the request timeout. */
  readonly leaseMs: number;
  readonly clock: Clock;
  /** For the per-process request-id prefix. */
  readonly random: Random;
  readonly log: Logger;
  /** @default 60000 */
  readonly windowMs?: number;
  /** Added to the window: hosts' clocks must agree within it. @default 250 */
  readonly guardMs?: number;
}

type Mode = 'starting' | 'shared' | 'local' | 'closed';

/** A short, secret-free reason for a failed Redis command (never the URL). */
export function redisFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/timed out/i.test(message)) return 'command timed out';
  if (/writeable|enableOfflineQueue|Connection is closed/i.test(message)) return 'not connected';
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  return `command failed (${message.replace(/rediss?:\/\/\S*/g, 'redis://…').slice(0, 120)})`;
}

export class FleetQuota implements SharedQuota {
  readonly events = new TypedEmitter<FleetQuotaEvents>();
  readonly #o: FleetQuotaOptions;
  readonly #keyId: string;
  readonly #gates: FleetGate[] = [];
  readonly #prefix: string;
  readonly #offs: (() => void)[] = [];
  #mode: Mode = 'starting';
  #seq = 0;
  #restoring = false;
  #lastTry = Number.NEGATIVE_INFINITY;
  #warnedCrowded = false;
  #leaveStarting!: () => void;
  /** Settles once the first connection has been made, has failed, or the quota closed. @internal */
  readonly connected = new Promise<void>((resolve) => (this.#leaveStarting = resolve));

  constructor(options: FleetQuotaOptions) {
    this.#o = options;
    this.#keyId = quotaKeyId(options.apiKey);
    this.#prefix = Buffer.from(options.random.bytes(6)).toString('hex');
    defineQuotaScripts(options.redis);
    const on = (name: string, fn: () => void): void => {
      options.redis.on(name, fn);
      this.#offs.push(() => options.redis.off(name, fn));
    };
    on('close', () => this.lose('connection closed'));
    on('ready', () => void this.#restore());
    // ioredis reports each failed attempt; the transition is logged once, by `lose`.
    on('error', () => undefined);
    if (options.redis.status === 'ready') void this.#restore();
  }

  /** True while the gates admit against the fleet's windows in Redis. */
  get shared(): boolean {
    return this.#mode === 'shared';
  }

  get mode(): Mode {
    return this.#mode;
  }

  /** Resolves once the quota is shared (Redis answered and this daemon's entries are in it). */
  whenShared(): Promise<void> {
    if (this.#mode === 'shared') return Promise.resolve();
    return this.events.next('restored').then(() => undefined);
  }

  gate(bucket: Bucket, quota: number): SharedGate {
    // The config check refuses such a size first; a quota given here by a caller is checked again.
    const problem = fleetSizeProblem(quota, this.#o.size);
    if (problem !== null) throw new RangeError(`${problem} (the ${bucket} bucket)`);
    const split = quotaSplit(quota, this.#o.size);
    const gate = new FleetGate(this, bucket, split, quotaKeys(this.#keyId, bucket));
    this.#gates.push(gate);
    return gate;
  }

  close(): void {
    if (this.#mode === 'closed') return;
    this.#mode = 'closed';
    this.#leaveStarting();
    for (const off of this.#offs) off();
    this.#o.redis.disconnect();
  }

  /** @internal for the gates */
  get options(): FleetQuotaOptions {
    return this.#o;
  }

  /** @internal */
  get windowMs(): number {
    return (this.#o.windowMs ?? 60_000) + (this.#o.guardMs ?? 250);
  }

  /** @internal Keys of a zset live as long as an in-flight entry can count, and a little more. */
  get ttlMs(): number {
    return this.#o.leaseMs + this.windowMs + 1_000;
  }

  /** @internal Unique across restarts: a random prefix per process. */
  nextRequestId(): string {
    return `${this.#prefix}:${++this.#seq}`;
  }

  /** @internal A command failed or the connection closed: keep to the shares, say so once. */
  lose(reason: string): void {
    if (this.#mode !== 'shared' && this.#mode !== 'starting') return;
    const wasShared = this.#mode === 'shared';
    this.#mode = 'local';
    this.#leaveStarting();
    const shares = this.#gates.map((g) => `${g.split.share} of ${g.split.quota} per 60 s on ${g.bucket}`).join(', ');
    this.#o.log.warn(
      { redis: this.#o.label, reason, wasShared },
      `shared quota lost: ${reason}; keeping to this daemon's share (${shares || 'no bucket yet'}) until Redis is back`,
    );
    this.events.emit('lost', { reason });
  }

  /** @internal Fleet said more daemons are registered than fleet.size: warn once, it is a misconfiguration. */
  crowded(bucket: Bucket, registered: number): void {
    if (this.#warnedCrowded || registered <= this.#o.size) return;
    this.#warnedCrowded = true;
    this.#o.log.warn(
      { redis: this.#o.label, bucket, registered, size: this.#o.size },
      `${registered} daemons share this API key's quota but fleet.size is ${this.#o.size}: set fleet.size to the number of daemons, or the fleet can exceed the quota while Redis is unreachable`,
    );
  }

  /** @internal From a local decision: Redis may be back without a `ready` (a command timed out on a live connection). */
  maybeRestore(): void {
    if (this.#mode !== 'local' || this.#o.redis.status !== 'ready') return;
    if (this.#o.clock.monotonic() - this.#lastTry < 1_000) return;
    void this.#restore();
  }

  async #restore(): Promise<void> {
    if (this.#restoring || (this.#mode !== 'local' && this.#mode !== 'starting')) return;
    this.#restoring = true;
    this.#lastTry = this.#o.clock.monotonic();
    const from = this.#mode;
    try {
      // Entries admitted while a seed is on its way are seeded by the next round: switch only when none is left.
      let reseeded = 0;
      for (let round = 0; round < 10; round++) {
        const pending = this.#gates.map((gate) => ({ gate, entries: gate.liveEntries() }));
        for (const { gate, entries } of pending) {
          await seedScript(this.#o.redis, gate.keys, this.#o.daemonId, this.#o.clock.now(), this.ttlMs, entries);
          reseeded += entries.length;
        }
        if (this.#gates.every((gate) => !gate.addedSinceRead)) break;
      }
      // Requests admitted alone still not written (a busy daemon outran ten rounds): stay alone, and
      // try again from the next local decision, rather than share with Redis counting too few.
      if (this.#mode !== from || this.#gates.some((gate) => gate.addedSinceRead)) return;
      this.#mode = 'shared';
      this.#leaveStarting();
      if (from === 'local')
        this.#o.log.info({ redis: this.#o.label, reseeded }, `shared quota restored on ${this.#o.label}: re-seeded ${reseeded} of this daemon's entries`);
      else this.#o.log.debug({ redis: this.#o.label }, `shared quota on ${this.#o.label}`);
      this.events.emit('restored', { reseeded });
    } catch (error) {
      // Still unreachable: stay local; the next `ready` (or a local decision) tries again. A first
      // write that failed on a live connection (a timeout, an ACL refusing scripts) is a loss too:
      // said once, and retried from local decisions, never left waiting in `starting`.
      if (this.#mode === 'starting') this.lose(redisFailure(error));
    } finally {
      this.#restoring = false;
    }
  }
}

/** One bucket's gate: the fleet's script while shared, this daemon's share of its own record otherwise. */
class FleetGate implements SharedGate {
  readonly bucket: Bucket;
  readonly split: QuotaSplit;
  readonly keys: QuotaKeys;
  readonly #quota: FleetQuota;
  /** Every own request, on the monotonic clock, sized to the share: the fallback's judge. */
  readonly #window: SlidingWindow;
  /** Every own request still counting, by id: wall start, wall end once over. For the re-seed. */
  readonly #entries = new Map<string, { start: number; end: number | null }>();
  #added = 0;

  constructor(quota: FleetQuota, bucket: Bucket, split: QuotaSplit, keys: QuotaKeys) {
    this.#quota = quota;
    this.bucket = bucket;
    this.split = split;
    this.keys = keys;
    this.#window = new SlidingWindow(split.share, quota.windowMs);
  }

  async acquire(priority: number): Promise<SharedGrant> {
    const q = this.#quota;
    const o = q.options;
    const orderWork = priority >= Priority.Place;
    const ownLimit = orderWork ? this.split.share : this.split.share - this.split.shareHeadroom;
    if (q.mode === 'shared') {
      const requestId = q.nextRequestId();
      const now = o.clock.now();
      try {
        const reply = await acquireScript(o.redis, this.keys, {
          daemonId: o.daemonId,
          requestId,
          now,
          windowMs: q.windowMs,
          leaseMs: o.leaseMs,
          limit: orderWork ? this.split.quota : Math.max(1, this.split.quota - this.split.headroom),
          share: this.split.share,
          ownLimit,
          localCount: this.#window.count(o.clock.monotonic()),
          size: o.size,
          ttlMs: q.ttlMs,
        });
        q.crowded(this.bucket, reply.registered);
        if (!reply.admitted) return { admitted: false, retryInMs: reply.waitMs };
        q.events.emit('admitted', { bucket: this.bucket, priority, shared: true });
        return { admitted: true, slot: this.#take(requestId, now) };
      } catch (error) {
        q.lose(redisFailure(error));
      }
    } else if (q.mode === 'starting') {
      // Not connected yet: Redis may hold this wallet's requests from a process that just stopped,
      // which the new, empty record does not know. Wait for the connection (or its failure, which
      // falls back to the share): real I/O, bounded by the client's connect timeout, not a clock.
      await q.connected;
      return this.acquire(priority);
    } else q.maybeRestore();
    const wait = this.#window.waitMs(o.clock.monotonic(), ownLimit);
    if (wait > 0) return { admitted: false, retryInMs: Number.isFinite(wait) ? Math.max(1, wait) : 1_000 };
    q.events.emit('admitted', { bucket: this.bucket, priority, shared: false });
    return { admitted: true, slot: this.#take(q.nextRequestId(), o.clock.now()) };
  }

  /** Own entries still counting, as `[until, id]`: an exchange in flight counts for its lease and a window. */
  liveEntries(): [number, string][] {
    const q = this.#quota;
    const now = q.options.clock.now();
    this.#added = 0;
    const live: [number, string][] = [];
    for (const [id, e] of this.#entries) {
      const until = e.end === null ? e.start + q.options.leaseMs + q.windowMs : e.end + q.windowMs;
      if (until > now) live.push([until, id]);
      else if (e.end !== null) this.#entries.delete(id);
    }
    return live;
  }

  /** True when requests were admitted since {@link liveEntries} was read. */
  get addedSinceRead(): boolean {
    return this.#added > 0;
  }

  #take(requestId: string, start: number): SharedSlot {
    const q = this.#quota;
    const local: WindowSlot = this.#window.start(q.options.clock);
    const entry = { start, end: null as number | null };
    this.#entries.set(requestId, entry);
    this.#added++;
    this.#prune(start);
    return {
      end: () => {
        if (entry.end !== null) return;
        local.end();
        const o = q.options;
        entry.end = o.clock.now();
        if (q.mode !== 'shared') return;
        // Fire and forget: the request is over; a failure only means Redis is gone (and it says so once).
        endScript(o.redis, this.keys, o.daemonId, requestId, entry.end + q.windowMs, entry.end, q.ttlMs).catch((error: unknown) => q.lose(redisFailure(error)));
      },
    };
  }

  /** Forgets ended entries past their window, so the record stays the size of a window. */
  #prune(now: number): void {
    if (this.#entries.size < 2 * this.split.quota + 16) return;
    for (const [id, e] of this.#entries) if (e.end !== null && e.end + this.#quota.windowMs <= now) this.#entries.delete(id);
  }
}
