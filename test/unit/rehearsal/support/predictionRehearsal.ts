/**
 * What the prediction rehearsal tests share: a NO position of 30 contracts on BTC-1006-M1 (the
 * watched wallet's, funded by the simulator as a paper wallet is), a strategy over it, the rehearsal
 * database read back, the wallet as the simulator holds it, and the proof that nothing was executed.
 */
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { RehearsalWorld } from './rehearsalWorld.js';

export const START = Date.UTC(2026, 10, 2, 8, 0);
export const MARKET = 'BTC-1006-M1';
export const NO_LEG = `prediction:${MARKET}:no`;
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const HELD = 30_000_000n;

/** A prediction-exit strategy on the NO position: `half` sells 50% from 0.55, `rest` sells what is left from 0.70. */
export function exitStrategy(options: { rest?: boolean; claim?: boolean; minSell?: string }): string {
  return [
    'name: btc-no',
    'kind: prediction-exit',
    `positions: { market: ${MARKET}, side: no }`,
    'rules:',
    '  - { id: half, when: { sell_price_at_least: "0.55" }, action: sell_part, share: "50%" }',
    ...(options.rest ? ['  - { id: rest, when: { sell_price_at_least: "0.70" } }'] : []),
    `claim_when_settled: ${options.claim === true}`,
    `risk: { min_sell_price_usd: "${options.minSell ?? '0.40'}" }`,
    '',
  ].join('\n');
}

export interface IntentRow {
  readonly id: string;
  readonly kind: string;
  readonly state: string;
  readonly params: string;
  readonly error_code: string | null;
  readonly error_message: string | null;
  /** The data of its `intent.failed` action, when it failed. */
  readonly failure: Record<string, unknown> | null;
}

export interface FillRow {
  readonly intent_id: string;
  readonly source: string;
  readonly position_pubkey: string | null;
  readonly in_mint: string;
  readonly in_amount: string;
  readonly out_mint: string;
  readonly out_amount: string;
  readonly fee_mint: string | null;
  readonly fee_amount: string | null;
  readonly signature: string;
}

export interface Verdict {
  readonly intentId: string;
  readonly kind: string;
  readonly verdict: string;
  readonly reason: string | null;
  readonly by?: string;
  readonly expectation: Record<string, string> | null;
}

export interface Rehearsed {
  readonly intents: IntentRow[];
  readonly fills: FillRow[];
  readonly verdicts: Verdict[];
  readonly costs: { intent_id: string; lamports: string }[];
}

/** The rehearsal database as the daemon left it. */
export function rehearsed(world: RehearsalWorld): Rehearsed {
  const db = new Database(world.database, { readonly: true });
  try {
    const failed = db.prepare("SELECT intent_id, data FROM actions WHERE kind = 'intent.failed'").all() as { intent_id: string; data: string }[];
    const failures = new Map(failed.map((f) => [f.intent_id, JSON.parse(f.data) as Record<string, unknown>]));
    const intents = (
      db.prepare('SELECT id, kind, state, params, error_code, error_message FROM intents ORDER BY created_at, id').all() as Omit<IntentRow, 'failure'>[]
    ).map((row) => ({ ...row, failure: failures.get(row.id) ?? null }));
    const fills = db
      .prepare('SELECT intent_id, source, position_pubkey, in_mint, in_amount, out_mint, out_amount, fee_mint, fee_amount, signature FROM fills ORDER BY id')
      .all() as FillRow[];
    const rows = db.prepare("SELECT intent_id, data FROM actions WHERE kind = 'rehearsal.transaction' ORDER BY id").all() as {
      intent_id: string;
      data: string;
    }[];
    const verdicts = rows.map((r) => ({ intentId: r.intent_id, ...(JSON.parse(r.data) as Omit<Verdict, 'intentId'>) }));
    const costs = db.prepare('SELECT intent_id, lamports FROM rehearsal_costs').all() as { intent_id: string; lamports: string }[];
    return { intents, fills, verdicts, costs };
  } finally {
    db.close();
  }
}

export interface RealPosition {
  readonly pubkey: string;
  readonly contractsMicro: string;
  readonly openOrders: number;
  readonly claimed: boolean;
  readonly claimable: boolean;
}

/** The wallet's NO position as the simulator (standing in for Jupiter) holds it. */
export async function realPosition(world: RehearsalWorld): Promise<RealPosition> {
  const answer = (await world.read(`/prediction/v1/positions?ownerPubkey=${world.wallet}&marketId=${MARKET}`)) as { data: RealPosition[] };
  const [position] = answer.data;
  if (position === undefined) throw new Error(`the wallet holds no ${MARKET} position`);
  return position;
}

/**
 * Nothing was executed, signed or sent: the only requests that changed the simulated world are the
 * builders (which answer an unsigned transaction), no `/execute` of any API, no RPC sendTransaction,
 * and the simulator opened no prediction order for the wallet.
 */
export function expectNothingExecuted(world: RehearsalWorld): void {
  const paths = world.writes.map((w) => `${w.method} ${w.path}`);
  expect(paths.filter((p) => p.includes('/execute'))).toEqual([]);
  expect(paths.filter((p) => p.endsWith(' /rpc') || p.endsWith(' /'))).toEqual([]);
  const builder = /^(POST \/prediction\/v1\/orders|DELETE \/prediction\/v1\/positions\/\w+|POST \/prediction\/v1\/positions\/\w+\/claim)$/;
  expect(paths.filter((p) => !builder.test(p))).toEqual([]);
  expect(world.sim.control.dumpOrders()['prediction']).toEqual([]);
}

/** The answers the daemon received from a builder route, in order. */
export function builds(world: RehearsalWorld, path: RegExp): Record<string, unknown>[] {
  return world.answers.filter((a) => path.test(a.path) && a.status === 200).map((a) => a.body as Record<string, unknown>);
}
