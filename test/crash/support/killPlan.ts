/**
 * Where each SIGKILL lands, drawn from a seeded Random so a failing run replays. A kill point is
 * "the k-th request of some class since this start, at one of the three phases" (crashSim.ts):
 * before the world acted on it, after it acted but before the daemon heard, or just after the
 * daemon got the answer (so it dies while recording it). Nearly half target the calls that commit
 * (a swap's execute, an order's creation with its deposit, a PATCH, a confirm-cancel, a send): the
 * answers a daemon must never lose. A third target any money-path call (quotes, crafts, cancels,
 * status checks too); the rest fall on any request, which spreads them over start-up, login,
 * reconciliation and the fill sync's polls.
 */
import type { Random } from '../../../src/random.js';
import type { RequestPhase, SeenRequest } from './crashSim.js';

export interface KillPoint {
  readonly target: 'commit' | 'trading' | 'any';
  /** Kill at the k-th matching request since this start (1-based). */
  readonly k: number;
  readonly phase: RequestPhase;
}

const PHASES: readonly RequestPhase[] = ['received', 'answered', 'delivered'];
const TRADING_RPC = new Set(['sendTransaction', 'getSignatureStatuses']);

/** A request that moves money or settles whether money moved (quotes and crafts included). */
export function isTradingRequest(request: SeenRequest): boolean {
  if (request.rpcMethod !== undefined) return TRADING_RPC.has(request.rpcMethod);
  if (request.path.startsWith('/trigger/v2/auth/')) return false;
  if (request.path === '/swap/v2/order') return true;
  return request.method !== 'GET';
}

/** A request after which money has moved or an order changed: the answer the daemon must not lose. */
export function isCommitRequest(request: SeenRequest): boolean {
  if (request.rpcMethod !== undefined) return request.rpcMethod === 'sendTransaction';
  return isTradingRequest(request) && request.path !== '/swap/v2/order' && request.path !== '/trigger/v2/deposit/craft' && !/\/cancel\//.test(request.path);
}

export function matches(point: KillPoint, request: SeenRequest): boolean {
  if (point.target === 'commit') return isCommitRequest(request);
  return point.target === 'any' || isTradingRequest(request);
}

export function planKill(random: Random): KillPoint {
  const phase = PHASES[random.int(0, PHASES.length - 1)] as RequestPhase;
  const roll = random.next();
  if (roll < 0.45) return { target: 'commit', k: random.int(1, 2), phase };
  if (roll < 0.75) return { target: 'trading', k: random.int(1, 3), phase };
  return { target: 'any', k: random.int(1, 80), phase };
}

export function describeKill(point: KillPoint, request: SeenRequest | undefined): string {
  const what = request ? `${request.method} ${request.path}${request.rpcMethod ? ` ${request.rpcMethod}` : ''}` : 'no request';
  return `${point.target}#${point.k} ${point.phase}: ${what}`;
}
