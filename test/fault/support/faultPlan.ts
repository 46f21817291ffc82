/**
 * The faults of one simulated day, drawn from a seed: two of each class, one per 100-minute slot from
 * the second hour on, in a seeded order, each at a seeded offset and for a seeded duration. The last
 * hours stay calm so that delayed work can finish before the final state is read.
 */
import { createRandom } from '../../../src/random.js';
import type { FaultSpec } from '../../../src/sim/faults.js';

export const FAULT_CLASSES = ['429-storm', '5xx-burst', 'timeout', 'malformed-json', 'rpc-outage', 'jwt-revoked'] as const;
export type FaultClass = (typeof FAULT_CLASSES)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The Jupiter API areas the daemon calls; the RPC is separate (`/rpc`). */
const API_AREAS = ['/tokens/v2/*', '/ultra/v1/*', '/swap/v2/*', '/trigger/v2/*', '/prediction/v1/*'] as const;

export interface PlannedFault {
  readonly cls: FaultClass;
  /** Offset from the start of the day. */
  readonly atMs: number;
  /** How long the window lasts (a revoked JWT stays revoked: 0 here, it needs no window). */
  readonly durationMs: number;
  /**
   * Fault table entries for the window. Their `fromMs`/`untilMs`, when set, are offsets within the
   * window (default: the whole window). Empty for `jwt-revoked`: that one is built once the token is known.
   */
  readonly specs: readonly FaultSpec[];
}

const apiWide = (fault: Omit<FaultSpec, 'path'>): FaultSpec[] => API_AREAS.map((path) => ({ path, ...fault }));

/** Gateway-originated errors use `{ code, message }`. */
const gateway = (status: number, message: string): { code: number; message: string } => ({ code: status, message });

export function planFaults(seed: string): PlannedFault[] {
  const random = createRandom(`${seed}:faults`);
  const classes: FaultClass[] = [...FAULT_CLASSES, ...FAULT_CLASSES];
  for (let i = classes.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [classes[i], classes[j]] = [classes[j] as FaultClass, classes[i] as FaultClass];
  }
  return classes.map((cls, slot) => {
    const atMs = HOUR + slot * 100 * MINUTE + random.int(0, 45) * MINUTE;
    switch (cls) {
      case '429-storm':
        return {
          cls,
          atMs,
          durationMs: random.int(3, 8) * MINUTE,
          specs: apiWide({ kind: 'status', status: 429, body: gateway(429, '[API Gateway] Too many requests') }),
        };
      case '5xx-burst': {
        const status = [500, 502, 503][random.int(0, 2)] as number;
        return {
          cls,
          atMs,
          durationMs: random.int(2, 5) * MINUTE,
          specs: apiWide({
            kind: 'status',
            status,
            body: gateway(status, status === 500 ? 'Internal Server Error' : status === 502 ? 'Bad Gateway' : 'Service Unavailable'),
          }),
        };
      }
      case 'timeout':
        // Held three times longer than api.timeout: the client gives up, the answer comes too late.
        return { cls, atMs, durationMs: random.int(2, 4) * MINUTE, specs: apiWide({ kind: 'delay', delayMs: 30_000 }) };
      case 'malformed-json':
        return { cls, atMs, durationMs: random.int(3, 6) * MINUTE, specs: apiWide({ kind: 'malformed' }) };
      case 'rpc-outage': {
        // Connections refused first, then the provider answers 503 until it is back.
        const durationMs = random.int(10, 20) * MINUTE;
        return {
          cls,
          atMs,
          durationMs,
          specs: [
            { path: '/rpc', kind: 'reset', fromMs: 0, untilMs: durationMs / 2 },
            { path: '/rpc', kind: 'status', status: 503, body: { jsonrpc: '2.0', error: { code: -32603, message: 'Service Unavailable' }, id: null } },
          ],
        };
      }
      case 'jwt-revoked':
        return { cls, atMs, durationMs: 0, specs: [] };
    }
  });
}
