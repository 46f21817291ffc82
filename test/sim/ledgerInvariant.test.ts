/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call -- raw JSON answers are read loosely here; their shapes are checked against the wire schemas. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createRandom } from '../../src/random.js';
import type { SimRequest } from '../../src/sim/http.js';
import { createSimulator } from '../../src/sim/simulator.js';
import { BONK, JUP, signMessage, signTx, SOL, USDC, wallet } from './support/simHarness.js';

describe('ledger invariant', () => {
  it('conserves every mint and keeps balances non-negative over a simulated day of random activity', { timeout: 60_000 }, async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
    const wallets = Array.from({ length: 4 }, (_, i) => wallet(`day-${i}`));
    const sim = createSimulator({ clock, seed: 'day', paperWallets: wallets.map((w) => w.publicKey.toBase58()), gateway: { unlimited: true } });
    const rnd = createRandom('day-script');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const call = async (method: string, path: string, body?: unknown, jwt?: string): Promise<any> => {
      const url = new URL(path, 'http://sim');
      const req: SimRequest = {
        method,
        path: url.pathname,
        query: url.searchParams,
        headers: { 'x-api-key': 'k', ...(jwt ? { authorization: `Bearer ${jwt}` } : {}) },
        rawBody: body === undefined ? '' : JSON.stringify(body),
      };
      const res = await sim.dispatch(req);
      expect(res.status, `${method} ${path} ${res.body}`).toBeLessThan(500);
      return JSON.parse(res.body) as unknown;
    };
    const jwts: string[] = [];
    for (const kp of wallets) {
      const pub = kp.publicKey.toBase58();
      const ch = await call('POST', '/trigger/v2/auth/challenge', { walletPubkey: pub, type: 'message' });
      jwts.push((await call('POST', '/trigger/v2/auth/verify', { type: 'message', walletPubkey: pub, signature: signMessage(ch.challenge, kp) })).token);
      await call('GET', '/trigger/v2/vault/register', undefined, jwts.at(-1));
    }
    const mints = [SOL, USDC, JUP, BONK];
    const counts: Record<string, number> = {};
    for (let step = 0; step < 288; step++) {
      const i = rnd.int(0, wallets.length - 1);
      const kp = wallets[i] as (typeof wallets)[number];
      const pub = kp.publicKey.toBase58();
      const jwt = jwts[i] as string;
      const action = rnd.int(0, 5);
      counts[action] = (counts[action] ?? 0) + 1;
      if (action <= 1) {
        const input = mints[rnd.int(0, 3)] as string;
        const output = mints.filter((m) => m !== input)[rnd.int(0, 2)] as string;
        const balance = sim.control.balance(pub, input);
        const amount = (balance * BigInt(rnd.int(1, 30))) / 100n;
        if (amount > 0n) {
          const order = await call('GET', `/swap/v2/order?inputMint=${input}&outputMint=${output}&amount=${amount}&taker=${pub}`);
          if (order.transaction) await call('POST', '/swap/v2/execute', { signedTransaction: signTx(order.transaction, kp), requestId: order.requestId });
        }
      } else if (action === 2) {
        const price = sim.control.price(SOL);
        const dep = await call(
          'POST',
          '/trigger/v2/deposit/craft',
          { inputMint: USDC, outputMint: SOL, userAddress: pub, amount: '15000000', orderType: 'price', orderSubType: 'single' },
          jwt,
        );
        if (dep.transaction) {
          await call(
            'POST',
            '/trigger/v2/orders/price',
            {
              orderType: 'single',
              depositRequestId: dep.requestId,
              depositSignedTx: signTx(dep.transaction, kp),
              userPubkey: pub,
              inputMint: USDC,
              outputMint: SOL,
              inputAmount: '15000000',
              triggerMint: SOL,
              triggerCondition: 'below',
              triggerPriceUsd: price * (0.97 + rnd.next() * 0.03),
              expiresAt: clock.now() + rnd.int(1, 12) * 3_600_000,
            },
            jwt,
          );
        }
      } else if (action === 3) {
        const dep = await call(
          'POST',
          '/trigger/v2/deposit/craft',
          { inputMint: USDC, outputMint: JUP, userAddress: pub, amount: '30000000', orderType: 'dca' },
          jwt,
        );
        if (dep.transaction)
          await call(
            'POST',
            '/trigger/v2/orders/dca',
            {
              depositRequestId: dep.requestId,
              depositSignedTx: signTx(dep.transaction, kp),
              userPubkey: pub,
              inputMint: USDC,
              outputMint: JUP,
              inputAmount: '30000000',
              orderCount: 3,
              intervalSeconds: 3600,
            },
            jwt,
          );
      } else if (action === 4) {
        const history = await call('GET', '/trigger/v2/orders/history?state=active', undefined, jwt);
        const open = history.orders.find(
          (o: { orderState: string; createdAt: number }) => (o.orderState === 'open' || o.orderState === 'expired') && clock.now() - o.createdAt > 10_000,
        );
        if (open) {
          const cancel = await call('POST', `/trigger/v2/orders/price/cancel/${open.id}`, undefined, jwt);
          if (cancel.transaction)
            await call(
              'POST',
              `/trigger/v2/orders/price/confirm-cancel/${open.id}`,
              { signedTransaction: signTx(cancel.transaction, kp), cancelRequestId: cancel.requestId },
              jwt,
            );
        }
      } else {
        const positions = await call('GET', `/prediction/v1/positions?ownerPubkey=${pub}`);
        const build =
          rnd.next() < 0.5 || positions.data.length === 0
            ? await call('POST', '/prediction/v1/orders', {
                ownerPubkey: pub,
                marketId: 'BTC-1006-M1',
                isYes: rnd.next() < 0.5,
                isBuy: true,
                depositAmount: '6000000',
              })
            : await call('DELETE', `/prediction/v1/positions/${positions.data[0].pubkey}`, { ownerPubkey: pub });
        if (build.transaction) await call('POST', '/prediction/v1/execute', { signedTransaction: signTx(build.transaction, kp) });
      }
      await sim.control.advance(300_000);
    }
    expect(Object.keys(counts).length).toBe(6);
    const { supplyMismatches, negativeBalances } = sim.control.checkInvariants();
    expect(supplyMismatches).toEqual([]);
    expect(negativeBalances).toEqual([]);
    const dump = sim.control.dumpLedger();
    for (const [mint, supply] of Object.entries(dump.supply)) {
      let sum = 0n;
      for (const row of Object.values(dump.balances)) sum += BigInt(row[mint] ?? '0');
      expect(sum.toString(), mint).toBe(supply);
    }
    const fees = dump.entries.filter((e) => e.reason === 'network-fee' || e.reason === 'prediction-fee' || e.reason === 'keeper-fill' || e.reason === 'swap');
    expect(fees.length).toBeGreaterThan(50);
  });
});
