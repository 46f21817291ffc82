import type { HostileVariant } from './hostile.js';
import type { SimRequest } from './http.js';

export type FaultKind = 'status' | 'delay' | 'malformed' | 'reset' | 'hostile' | 'transfer';

/**
 * One injected fault. Matching is on the path (exact, or a prefix when it ends in `*`), optionally the
 * method and optionally request headers. The Solana RPC (`POST /rpc`, `POST /`) is matched too: a
 * `status` or `reset` fault on `/rpc` is an RPC outage.
 */
export interface FaultSpec {
  readonly path: string;
  readonly method?: string;
  /**
   * Headers the request must carry with exactly these values (names case-insensitive). With
   * `authorization: 'Bearer <jwt>'` and Trigger's 401 body it revokes one JWT: every call still
   * using it is refused until the client logs in again, while a fresh token passes.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * JSON-RPC methods (on `/rpc`): the fault hits only calls of these (a batch when any of its calls
   * is one), e.g. `simulateTransaction` to act between a client's read and its simulation.
   */
  readonly rpcMethod?: string | readonly string[];
  readonly kind: FaultKind;
  /** `status`: the code to answer with (default 503) and an optional JSON body. */
  readonly status?: number;
  readonly body?: unknown;
  /** `delay`: how long to hold the request, on the injected clock. */
  readonly delayMs?: number;
  /** `reset`: drop the connection before the handler runs (default) or after it ran (the change happened, the answer is lost). */
  readonly phase?: 'before' | 'after';
  /** `hostile`: how the answer's transaction is tampered with (see hostile.ts). */
  readonly variant?: HostileVariant;
  /**
   * `transfer`: funds that move just before the request is answered, as a transaction signed
   * elsewhere would move them (the owner spending from another device, a stranger paying in).
   * Amount in base units, as a string; mint SOL when omitted.
   */
  readonly transfer?: FaultTransfer;
  /** How many requests it hits; omitted = until cleared. */
  readonly count?: number;
  /** Active window in simulated epoch ms (scenarios set these). */
  readonly fromMs?: number;
  readonly untilMs?: number;
}

export interface FaultTransfer {
  readonly from: string;
  readonly to: string;
  readonly amount: string;
  readonly mint?: string;
}

/** The JSON-RPC methods a request body calls (several for a batch); none when it does not parse. */
function rpcMethods(rawBody: string): string[] {
  try {
    const parsed: unknown = JSON.parse(rawBody);
    const calls = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
    return calls.flatMap((c) =>
      typeof c === 'object' && c !== null && typeof (c as { method?: unknown }).method === 'string' ? [(c as { method: string }).method] : [],
    );
  } catch {
    return [];
  }
}

/** A scripted step: `atMs` after the scenario starts, for `durationMs` (or until its count runs out). */
export interface ScenarioStep extends Omit<FaultSpec, 'fromMs' | 'untilMs'> {
  readonly atMs: number;
  readonly durationMs?: number;
}

interface ActiveFault {
  readonly id: number;
  readonly spec: FaultSpec;
  remaining: number;
}

/** The fault table: what the next matching requests suffer. Consulted before the gateway. */
export class Faults {
  #nextId = 1;
  #faults: ActiveFault[] = [];

  constructor(private readonly now: () => number) {}

  inject(spec: FaultSpec): number {
    const id = this.#nextId++;
    this.#faults.push({ id, spec, remaining: spec.count ?? Number.POSITIVE_INFINITY });
    return id;
  }

  scenario(steps: readonly ScenarioStep[]): number[] {
    const start = this.now();
    return steps.map(({ atMs, durationMs, ...rest }) =>
      this.inject({ ...rest, fromMs: start + atMs, ...(durationMs === undefined ? {} : { untilMs: start + atMs + durationMs }) }),
    );
  }

  clear(id?: number): void {
    this.#faults = id === undefined ? [] : this.#faults.filter((f) => f.id !== id);
  }

  list(): { id: number; remaining: number | null; spec: FaultSpec }[] {
    return this.#faults.map((f) => ({ id: f.id, remaining: Number.isFinite(f.remaining) ? f.remaining : null, spec: f.spec }));
  }

  /** The first active fault matching the request, consumed by one. */
  take(req: SimRequest): FaultSpec | undefined {
    const now = this.now();
    for (const fault of this.#faults) {
      const { spec } = fault;
      if (spec.method && spec.method.toUpperCase() !== req.method) continue;
      if (spec.headers && !Object.entries(spec.headers).every(([name, value]) => req.headers[name.toLowerCase()] === value)) continue;
      const matches = spec.path.endsWith('*') ? req.path.startsWith(spec.path.slice(0, -1)) : req.path === spec.path;
      if (!matches) continue;
      if (spec.rpcMethod !== undefined) {
        const wanted = typeof spec.rpcMethod === 'string' ? [spec.rpcMethod] : spec.rpcMethod;
        if (!rpcMethods(req.rawBody).some((m) => wanted.includes(m))) continue;
      }
      if (spec.fromMs !== undefined && now < spec.fromMs) continue;
      if (spec.untilMs !== undefined && now >= spec.untilMs) continue;
      fault.remaining--;
      if (fault.remaining <= 0) this.#faults = this.#faults.filter((f) => f !== fault);
      return spec;
    }
    return undefined;
  }
}
