/**
 * Leg slippage end to end: strategies decided by the engine's real loop, their vault orders created
 * and PATCHed through the client over HTTP to the simulator on 127.0.0.1, and every body sent read
 * back. Trigger V2 gives an OCO/OTOCO leg sent without its own slippage a default of its own (2000
 * bps for a stop-loss), so no body may leave a leg out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LoadedStrategy } from '../../../../src/strategies/loadedStrategy.js';
import { strategyLimits } from '../../../../src/strategies/strategyLimits.js';
import { HEADER, load } from '../../strategies/helpers.js';
import { SOL } from '../../../support/mints.js';
import { recordingOverHttp, type SentRequest } from '../../../support/simFetch.js';
import { testWorld, type TestWorld } from '../../../support/testStack.js';
import { startTradingStack } from './tradingSupport.js';

/** The config the stack runs with, and the limits its strategies load under. */
const GUARD = 'guard: { max_vault_slippage_bps: 250 }\n';
const LIMITS = strategyLimits({ max_slippage_bps: 300, max_vault_slippage_bps: 250 });

const ladder = (stopSlippage: number): string => `${HEADER}name: sol-ladder
kind: price-order
sell: SOL
amount: "1"
take_profit:
  - at: "180"
    sell: "50%"
    slippage_bps: 40
  - at: "200"
    sell: "30%"
stop_loss:
  at: "135"
  slippage_bps: ${stopSlippage}
slippage_bps: 60
`;

/** No slippage anywhere: every leg gets the config's vault cap. */
const ENTRY = `${HEADER}name: sol-entry
kind: price-order
sell: SOL
amount: "1"
entry:
  buy_below: "140"
  spend: "100"
take_profit:
  - at: "160"
stop_loss:
  at: "120"
`;

type Body = Record<string, unknown>;
const bodies = (sent: readonly SentRequest[], method: string): Body[] =>
  sent.filter((r) => r.method === method && r.path.startsWith('/trigger/v2/orders/price')).map((r) => r.body as Body);
const slippageOf = (b: Body): Body =>
  Object.fromEntries(
    ['orderType', 'triggerPriceUsd', 'tpPriceUsd', 'slippageBps', 'tpSlippageBps', 'slSlippageBps'].filter((k) => k in b).map((k) => [k, b[k]]),
  );

/** Slippage of the simulator's price orders of our wallet, by trigger condition and price. */
function simLegs(w: TestWorld): string[] {
  const dump = w.sim.control.dumpOrders() as { price?: Array<Record<string, unknown>> };
  return (dump.price ?? [])
    .filter((o) => o['userPubkey'] === w.wallet.address)
    .map((o) => `${String(o['orderType'])} ${String(o['triggerCondition'])} ${String(o['triggerPriceUsd'])}: ${String(o['slippageBps'])}`);
}

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

/** The world's simulator over HTTP, every request recorded; the server stops after the test. */
async function overHttp(w: TestWorld): Promise<{ fetch: typeof globalThis.fetch; sent: SentRequest[] }> {
  const served = await recordingOverHttp(w.sim);
  closeServer = served.close;
  return served;
}

describe('vault leg slippage, through the decide loop', () => {
  it('never leaves a leg to Trigger V2’s default: every OCO/OTOCO body names both legs’ slippage, as the strategies ask', async () => {
    const w = testWorld({ seed: 'e2e-legslip' });
    w.sim.control.setPrice(SOL, 150);
    const { fetch, sent } = await overHttp(w);
    const loaded = new Map<string, LoadedStrategy>([
      ['sol-ladder', await load(ladder(120), 'ladder.yaml', LIMITS)],
      ['sol-entry', await load(ENTRY, 'entry.yaml', LIMITS)],
    ]);
    const s = await startTradingStack(w, loaded, undefined, { config: GUARD, fetch });
    await s.tick(2);

    const created = bodies(sent, 'POST');
    // Strategies are decided in name order: sol-entry, then sol-ladder.
    expect(created.map(slippageOf)).toEqual([
      { orderType: 'otoco', triggerPriceUsd: 140, tpPriceUsd: 160, slippageBps: 250, tpSlippageBps: 250, slSlippageBps: 250 },
      { orderType: 'oco', tpPriceUsd: 180, tpSlippageBps: 40, slSlippageBps: 120 },
      { orderType: 'oco', tpPriceUsd: 200, tpSlippageBps: 60, slSlippageBps: 120 },
      { orderType: 'single', triggerPriceUsd: 135, slippageBps: 120 },
    ]);
    for (const body of created) {
      if (body['orderType'] === 'single') expect(typeof body['slippageBps']).toBe('number');
      else expect([typeof body['tpSlippageBps'], typeof body['slSlippageBps']]).toEqual(['number', 'number']);
    }
    expect(simLegs(w)).toEqual([
      'otoco below 140: 250',
      'oco above 180: 40',
      'oco below 135: 120',
      'oco above 200: 60',
      'oco below 135: 120',
      'single below 135: 120',
    ]);
    // Once the buy fills, the OTOCO's children carry the legs' slippage too.
    w.sim.control.setPrice(SOL, 139);
    await s.tick(1);
    expect(simLegs(w).slice(6)).toEqual(['otoco above 160: 250', 'otoco below 120: 250']);
    expect(bodies(sent, 'PATCH')).toEqual([]);
    await s.stop();
  });

  it('an edit of the stop’s slippage PATCHes every live order carrying the stop, once', async () => {
    const w = testWorld({ seed: 'e2e-legslip-edit' });
    w.sim.control.setPrice(SOL, 150);
    const { fetch, sent } = await overHttp(w);
    const loaded = new Map<string, LoadedStrategy>([['sol-ladder', await load(ladder(120), 'ladder.yaml', LIMITS)]]);
    const s = await startTradingStack(w, loaded, undefined, { config: GUARD, fetch });
    await s.tick(2);
    expect(bodies(sent, 'PATCH')).toEqual([]);

    // A hot reload: the same rules, the stop's slippage raised.
    await s.edit(await load(ladder(200), 'ladder.yaml', LIMITS));
    await s.tick(2);
    expect(bodies(sent, 'PATCH')).toEqual([
      { orderType: 'oco', slSlippageBps: 200 },
      { orderType: 'oco', slSlippageBps: 200 },
      { orderType: 'single', slippageBps: 200 },
    ]);
    expect(simLegs(w)).toEqual(['oco above 180: 40', 'oco below 135: 200', 'oco above 200: 60', 'oco below 135: 200', 'single below 135: 200']);
    await s.tick(2);
    expect(bodies(sent, 'PATCH')).toHaveLength(3);
    await s.stop();
  });
});
