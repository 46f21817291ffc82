/**
 * Daemons of a fleet, as far as the shared quota sees them: each has its own Redis connection, its
 * own FleetQuota and a BucketLimiter on the one ManualClock, and a demand the test sets. Each
 * admitted request is an "exchange" that lasts `exchangeMs` on the clock. Every admission is kept
 * with its daemon, class and start and end, for the independent window check below.
 */
import { setImmediate as tick } from 'node:timers/promises';
import type { ManualClock } from '../../../src/clock.js';
import { FleetQuota } from '../../../src/fleet/sharedQuota.js';
import { openFleetRedis } from '../../../src/fleet/fleetRedis.js';
import { BucketLimiter, type Priority } from '../../../src/jupiter/limiter.js';
import type { JupiterEvents } from '../../../src/jupiter/events.js';
import type { SharedGate } from '../../../src/jupiter/sharedGate.js';
import { createLogger } from '../../../src/ops/log.js';
import { createRandom } from '../../../src/random.js';
import { Secret } from '../../../src/secret.js';
import { TypedEmitter } from '../../../src/typedEmitter.js';
import { MemoryStream } from '../../support/memoryStream.js';

export const API_KEY = 'fleet-test-api-key-3f9a0c77d1e2';

export interface Sent {
  readonly daemon: string;
  readonly priority: number;
  readonly start: number;
  end: number;
}

export interface FleetDaemon {
  readonly name: string;
  readonly quota: FleetQuota;
  readonly limiter: BucketLimiter;
  readonly log: MemoryStream;
  /** Queues one request of `priority`; it resolves once its exchange is over. */
  send(priority: Priority): Promise<void>;
  /** Keeps `n` polls waiting at all times (0: stop adding). */
  demand(n: number, priority: Priority): void;
  /** Lines this daemon logged with `msg` starting with `prefix`. */
  lines(prefix: string): string[];
}

export class Fleet {
  readonly sent: Sent[] = [];
  readonly daemons: FleetDaemon[] = [];
  #asking = 0;

  constructor(
    readonly clock: ManualClock,
    readonly url: string,
    readonly options: { quota: number; size: number; leaseMs: number; exchangeMs: number },
  ) {}

  add(name: string): FleetDaemon {
    const { clock, options } = this;
    const stream = new MemoryStream();
    const log = createLogger({ destination: stream, clock, level: 'info' });
    const redis = openFleetRedis({ url: new Secret(this.url), maxReconnectDelayMs: 50, commandTimeoutMs: 500 });
    const quota = new FleetQuota({
      redis,
      label: 'redis://127.0.0.1/0',
      apiKey: API_KEY,
      daemonId: `wallet-${name}`,
      size: options.size,
      leaseMs: options.leaseMs,
      clock,
      random: createRandom(name),
      log,
    });
    const gate = quota.gate('main', options.quota);
    // Counts the gate's calls in flight, so `settle()` knows when every pump is parked on the clock.
    const counted: SharedGate = {
      acquire: async (priority) => {
        this.#asking++;
        try {
          return await gate.acquire(priority);
        } finally {
          this.#asking--;
        }
      },
    };
    const limiter = new BucketLimiter({ bucket: 'main', quota: options.quota, clock, events: new TypedEmitter<JupiterEvents>(), guardMs: 0, shared: counted });
    let wanted = 0;
    let wantedPriority: Priority = 0;
    let waiting = 0;
    const send = async (priority: Priority): Promise<void> => {
      const slot = await limiter.acquire(priority, '/test');
      const entry: Sent = { daemon: name, priority, start: clock.now(), end: Number.POSITIVE_INFINITY };
      this.sent.push(entry);
      await clock.sleep(options.exchangeMs);
      entry.end = clock.now();
      slot.end();
    };
    const topUp = (): void => {
      while (waiting < wanted) {
        waiting++;
        void send(wantedPriority)
          .catch(() => undefined)
          .finally(() => {
            waiting--;
            topUp();
          });
      }
    };
    const daemon: FleetDaemon = {
      name,
      quota,
      limiter,
      log: stream,
      send,
      demand(n, priority) {
        wanted = n;
        wantedPriority = priority;
        topUp();
      },
      lines: (prefix) =>
        stream
          .lines()
          .map((l) => String(l['msg']))
          .filter((m) => m.startsWith(prefix)),
    };
    this.daemons.push(daemon);
    return daemon;
  }

  /** Lets every pump finish its Redis round trips and park on the clock (real I/O, no clock time). */
  async settle(): Promise<void> {
    for (let quiet = 0; quiet < 3;) {
      await tick();
      quiet = this.#asking === 0 ? quiet + 1 : 0;
    }
  }

  /** Moves the clock `ms` forward in `stepMs` steps, settling after each. */
  async run(ms: number, stepMs = 250): Promise<void> {
    for (let t = 0; t < ms; t += stepMs) {
      await this.clock.advance(Math.min(stepMs, ms - t));
      await this.settle();
    }
  }

  close(): void {
    for (const d of this.daemons) {
      d.demand(0, 0);
      d.limiter.close();
      d.quota.close();
    }
  }
}

/**
 * The most requests the server could ever see in one window of `windowMs`: a request arrives at some
 * instant between its start and its end, so any window that some request's arrival can share with
 * the request starting last counts it. For each start s, the requests started by s whose end is
 * within windowMs before s (or later). Independent of the limiter's own bookkeeping.
 */
export function worstWindow(sent: readonly Sent[], windowMs: number, filter: (s: Sent) => boolean = () => true): number {
  const list = sent.filter(filter).sort((a, b) => a.start - b.start);
  let worst = 0;
  for (let i = 0; i < list.length; i++) {
    const s = (list[i] as Sent).start;
    let n = 0;
    for (let j = 0; j <= i; j++) if ((list[j] as Sent).end > s - windowMs) n++;
    for (let j = i + 1; j < list.length && (list[j] as Sent).start === s; j++) n++;
    worst = Math.max(worst, n);
  }
  return worst;
}
