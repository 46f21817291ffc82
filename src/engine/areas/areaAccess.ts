/**
 * Which areas of Jupiter's API this key may use, learnt from the answers themselves. A key scoped
 * to some products (or a region where one is blocked) gets `403 {code, message}` from the gateway for
 * the others: that turns the area **off**. It is recorded once (`area.off` in the audit log, which
 * becomes one log line and one webhook: ops/actionReports.ts), the feeds that read it pause, the
 * strategies that need it are paused with the reason, and readiness no longer waits for it.
 *
 * While an area is off and some loaded strategy needs it, it is asked again every
 * {@link AREA_RETRY_MS} on the injected clock with one cheap call (jupiter/apiAreas.ts `probeArea`);
 * nothing else calls it meanwhile. Any call into the area that the gateway lets through (a 2xx) turns
 * it back **on** (`area.on`, one line, one webhook), and the feeds and strategies resume.
 * Until the first refusal every area counts as on: nothing is known to be refused.
 */
import type { Clock } from '../../clock.js';
import { errorMessage } from '../../errors.js';
import { API_AREAS, type ApiArea, areaOfRoute, isAreaAnswer, isAreaRefusal } from '../../jupiter/apiAreas.js';
import type { Logger } from '../../ops/log.js';
import type { ActionInput } from '../../store/actionRow.js';
import { TypedEmitter } from '../../typedEmitter.js';
import { formatDuration } from '../../config/duration.js';

/** How often an area that refused the key is asked again (10 minutes): a scope changed in the portal shows within it. */
export const AREA_RETRY_MS = 10 * 60_000;

/** The gateway's refusal that turned an area off. */
export interface AreaRefusal {
  readonly status: number;
  /** The gateway's `message` (scrubbed), e.g. "API key does not have access to this endpoint". */
  readonly message: string | null;
  /** The call refused, `GET /prediction/v1/positions`. */
  readonly call: string;
}

/** One area as `/status` shows it. */
export interface AreaStatus {
  readonly area: ApiArea;
  /** False once the gateway refused it, until a call into it is answered again. */
  readonly on: boolean;
  /** Whether a loaded strategy (or an open vault order, for trigger) needs it: an area nothing needs is not polled at all. */
  readonly needed: boolean;
  /** The loaded strategies that need it: paused while it is off. */
  readonly strategies: readonly string[];
  /** Since when it is off (UTC epoch ms), else null. */
  readonly offSince: number | null;
  readonly refusal: AreaRefusal | null;
  /** When it is asked again (while off; only while needed is it actually asked). */
  readonly nextTryAt: number | null;
}

export interface AreaEvents {
  /** An area turned off or on. */
  changed: { readonly area: ApiArea; readonly on: boolean };
  /** One probe of an off area finished (answered, refused again, or failed otherwise). */
  probed: { readonly area: ApiArea; readonly on: boolean };
}

/** What the client reports of each exchange (its `request` event), as far as areas care. */
export interface ObservedRequest {
  readonly method: string;
  readonly route: string;
  readonly status: number | null;
  readonly code: string | null;
  readonly reason?: string | null | undefined;
}

export interface AreaAccessOptions {
  readonly clock: Clock;
  readonly audit: { append(action: ActionInput): unknown };
  readonly log?: Logger | undefined;
  /** @default AREA_RETRY_MS */
  readonly retryMs?: number | undefined;
  /** One call into the area; its answer reaches {@link AreaAccess.observe} like any other. */
  readonly probe: (area: ApiArea, signal: AbortSignal) => Promise<void>;
  /** Whether something loaded needs the area now: an off area is asked again only then. */
  readonly needed: (area: ApiArea) => boolean;
  /** The loaded strategies that need the area, named in what is recorded when it turns off. */
  readonly users: (area: ApiArea) => readonly string[];
}

interface Off {
  readonly since: number;
  readonly refusal: AreaRefusal;
  nextTryAt: number;
}

export class AreaAccess {
  readonly events = new TypedEmitter<AreaEvents>();
  readonly retryMs: number;
  readonly #options: AreaAccessOptions;
  readonly #off = new Map<ApiArea, Off>();
  readonly #loops = new Set<Promise<void>>();
  #signal: AbortSignal | null = null;

  constructor(options: AreaAccessOptions) {
    this.#options = options;
    this.retryMs = options.retryMs ?? AREA_RETRY_MS;
  }

  /** Follows a client's exchanges (its `request` events). Returns the unsubscribe. */
  observe(events: { on(name: 'request', fn: (e: ObservedRequest) => void): () => void }): () => void {
    return events.on('request', (e) => {
      const area = areaOfRoute(e.route);
      if (area === null) return;
      if (isAreaRefusal(e.status, e.code)) this.refused(area, { status: e.status ?? 403, message: e.reason ?? null, call: `${e.method} ${e.route}` });
      else if (isAreaAnswer(e.status)) this.answered(area, `${e.method} ${e.route}`);
    });
  }

  /** The gateway refused a call into `area`: off, unless it already is. */
  refused(area: ApiArea, refusal: AreaRefusal): void {
    if (this.#off.has(area)) return;
    const { clock } = this.#options;
    const since = clock.now();
    const off: Off = { since, refusal, nextTryAt: since + this.retryMs };
    this.#off.set(area, off);
    this.#record({
      kind: 'area.off',
      data: { area, status: refusal.status, message: refusal.message, call: refusal.call, retryMs: this.retryMs, strategies: [...this.#options.users(area)] },
    });
    this.events.emit('changed', { area, on: false });
    this.#retry(area, off);
  }

  /** A call into `area` was answered: on again, if it was off. */
  answered(area: ApiArea, call: string): void {
    const off = this.#off.get(area);
    if (off === undefined) return;
    this.#off.delete(area);
    const at = this.#options.clock.now();
    this.#record({ kind: 'area.on', data: { area, call, offSince: off.since, offForMs: at - off.since } });
    this.events.emit('changed', { area, on: true });
  }

  isOn(area: ApiArea): boolean {
    return !this.#off.has(area);
  }

  /** Why `area` is off, in words, or null while it is on. */
  offWords(area: ApiArea): string | null {
    const off = this.#off.get(area);
    if (off === undefined) return null;
    const said = off.refusal.message === null ? '' : ` "${off.refusal.message}"`;
    return (
      `the ${area} area of the Jupiter API is off for this key: ${off.refusal.call} answered ${off.refusal.status}${said} at ${new Date(off.since).toISOString()}; ` +
      `asked again every ${formatDuration(this.retryMs)}`
    );
  }

  status(): AreaStatus[] {
    return API_AREAS.map((area) => {
      const off = this.#off.get(area);
      return {
        area,
        on: off === undefined,
        needed: this.#options.needed(area),
        strategies: this.#options.users(area),
        offSince: off?.since ?? null,
        refusal: off?.refusal ?? null,
        nextTryAt: off?.nextTryAt ?? null,
      };
    });
  }

  /** Starts asking off areas again on their schedule; stops when `signal` aborts. */
  start(signal: AbortSignal): void {
    this.#signal = signal;
    for (const [area, off] of this.#off) this.#retry(area, off);
  }

  /** Settles once every retry loop has stopped. */
  async done(): Promise<void> {
    await Promise.allSettled([...this.#loops]);
  }

  #record(action: ActionInput): void {
    try {
      this.#options.audit.append(action);
    } catch (error) {
      // The disk is failing (its own alert says so); the change still takes effect.
      this.#options.log?.error({ err: error, kind: action.kind }, `could not record ${action.kind}: ${errorMessage(error)}`);
    }
  }

  /** One loop per off area: wait until its next try, ask if something needs it, until it is on again. */
  #retry(area: ApiArea, off: Off): void {
    const signal = this.#signal;
    if (signal === null) return;
    const { clock, log } = this.#options;
    const loop = (async () => {
      while (!signal.aborted && this.#off.get(area) === off) {
        try {
          await clock.sleep(Math.max(0, off.nextTryAt - clock.now()), signal);
        } catch {
          return;
        }
        if (this.#off.get(area) !== off) return;
        off.nextTryAt = clock.now() + this.retryMs;
        if (!this.#options.needed(area)) continue;
        try {
          await this.#options.probe(area, signal);
        } catch (error) {
          if (signal.aborted) return;
          log?.debug({ area, err: error }, `the ${area} area was asked again and is still off: ${errorMessage(error)}`);
        }
        this.events.emit('probed', { area, on: this.isOn(area) });
      }
    })();
    this.#loops.add(loop);
    void loop.finally(() => this.#loops.delete(loop));
  }
}
