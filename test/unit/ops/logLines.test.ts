/**
 * The lines an operator reads: symbols and rounded amounts in the message, the strategy first, the
 * exact base units and mints kept in the structured fields, and every warning saying what happens next.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { searchTokens } from '../../../src/jupiter/tokens.js';
import { createJupiterClient, type JupiterClient } from '../../../src/jupiter/transport.js';
import { reportActions } from '../../../src/ops/actionReports.js';
import { createLogger } from '../../../src/ops/log.js';
import { tokenNamer } from '../../../src/audit/tokenNames.js';
import { createRandom } from '../../../src/random.js';
import { AuditLog } from '../../../src/store/audit.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { freshStore } from '../store/helpers.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';

function reporting(): { audit: AuditLog; out: MemoryStream; stop: () => void } {
  const { db, clock } = freshStore();
  const audit = new AuditLog(db, clock);
  const out = new MemoryStream();
  const stop = reportActions({ audit, log: createLogger({ destination: out }), tokenName: tokenNamer((mint) => (mint === JUP ? 'JUP' : undefined)) });
  return { audit, out, stop };
}

describe('log lines for people', () => {
  it('a DCA fill: symbols, human amounts and the price per token; base units and mints stay in the fields', () => {
    const { audit, out, stop } = reporting();
    audit.append({
      kind: 'fill',
      strategy: 'dca-jup',
      intentId: 'dca-jup/abc/buy/2026-01-05T08:00',
      signature: 'sig1',
      data: { source: 'dca', in: { mint: USDC, amount: '20000000', decimals: 6 }, out: { mint: JUP, amount: '25024449', decimals: 6 } },
    });
    stop();
    const [line] = out.lines();
    expect(line?.msg).toBe('dca-jup: bought 25.0244 JUP for 20 USDC at $0.79922 per JUP (DCA order)');
    expect(line?.strategy).toBe('dca-jup');
    expect(line?.in).toEqual({ mint: USDC, amount: '20000000', decimals: 6 });
    expect(line?.out).toEqual({ mint: JUP, amount: '25024449', decimals: 6 });
  });

  it('a prediction sale reads in contracts and dollars, with the rule that fired', () => {
    const { audit, out, stop } = reporting();
    audit.append({
      kind: 'fill',
      strategy: 'nba-exit',
      intentId: 'nba-exit/5310be30d1a0/lock-in/BpufLEwpsA9DwVizQoZsiXXmFEFRva3MCPU2AMmAnXK9',
      data: {
        source: 'prediction',
        in: { mint: 'prediction:NBA-1001-M1:no', amount: '15000000', decimals: 6 },
        out: { mint: USDC, amount: '8290000', decimals: 6 },
      },
    });
    stop();
    expect(out.lines()[0]?.msg).toBe('nba-exit: sold 15 NBA-1001-M1 NO for 8.29 USDC at $0.55267 per contract (prediction market, rule lock-in)');
  });

  it('an armed strategy: the amount in SOL and the reference price to the cent', () => {
    const { audit, out, stop } = reporting();
    audit.append({
      kind: 'strategy.armed',
      strategy: 'sol-take-profit',
      data: { generation: 0, referencePriceUsd: '150.032818429724727594', armedAmount: '9999990000', mint: SOL, symbol: 'SOL', decimals: 9 },
    });
    // A row written before the token was recorded still reads, in base units.
    audit.append({ kind: 'strategy.armed', strategy: 'old', data: { generation: 2, referencePriceUsd: '0.000023456789', armedAmount: '5000' } });
    stop();
    expect(out.lines().map((l) => l.msg)).toEqual([
      'sol-take-profit: armed generation 0: 9.99999 SOL at reference price $150.03',
      'old: armed generation 2: 5000 base units at reference price $0.000023457',
    ]);
  });

  it('a failed intent says whether it is retried', () => {
    const { audit, out, stop } = reporting();
    audit.append({ kind: 'intent.failed', strategy: 's', intentId: 's/v/tp~r3', data: { code: 'LANDED_FAILED', message: 'landed and failed' } });
    audit.append({
      kind: 'intent.failed',
      strategy: 's',
      intentId: 's/v/tp',
      data: { code: 'GUARD_REFUSED', message: 'the transaction pays an unknown account' },
    });
    audit.append({ kind: 'intent.failed', strategy: 's', intentId: 's/v/run', data: { code: 'PARAMS_INVALID', message: 'amount: too small' } });
    stop();
    expect(out.lines().map((l) => [l.level, l.msg])).toEqual([
      ['warn', 's: intent failed (LANDED_FAILED): landed and failed; a DCA run has used its 3 retries; an exit rule that still fires tries again in 5m'],
      // A refusal is a verdict on one transaction: the rule asks again.
      [
        'warn',
        's: intent failed (GUARD_REFUSED): the transaction pays an unknown account; the rule tries again as a new intent in 1m if it still fires (a DCA run: retry 1 of 3)',
      ],
      [
        'warn',
        's: intent failed (PARAMS_INVALID): amount: too small; a DCA run is not retried (it would fail the same way); an exit rule that still fires tries again in 1m',
      ],
    ]);
  });
});

describe('Jupiter request lines', () => {
  const client = (answers: Response[], out: MemoryStream, level = 'info'): { client: JupiterClient; clock: ManualClock } => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5));
    const fetch: typeof globalThis.fetch = () => Promise.resolve(answers.shift() ?? new Response('{}', { status: 500 }));
    const c = createJupiterClient({
      baseUrl: 'https://api.jup.ag',
      requestsPerSecond: 10,
      clock,
      random: createRandom('lines'),
      fetch,
      logger: createLogger({ level, destination: out }),
    });
    return { client: c, clock };
  };

  it('a refused request names the request and the reason, and says it is not retried', async () => {
    const out = new MemoryStream();
    const { client: c } = client(
      [new Response(JSON.stringify({ error: 'query must not be empty' }), { status: 400, headers: { 'x-api-gateway-request-id': 'r-1' } })],
      out,
    );
    await expect(searchTokens(c, { query: 'SOL' })).rejects.toThrow(/400/);
    c.close();
    const [line] = out.lines();
    expect(line?.level).toBe('info');
    expect(line?.msg).toMatch(
      /^Jupiter refused GET \/tokens\/v2\/search → 400 \w+: query must not be empty \(request id r-1\): not retried; the caller decides what to do$/,
    );
    expect(line).toMatchObject({ method: 'GET', route: '/tokens/v2/search', status: 400, requestId: 'r-1' });
  });

  it('a failed read says when it is retried, and a failed write that it is not', async () => {
    const out = new MemoryStream();
    const { client: c, clock } = client(
      [new Response('{"error":"upstream"}', { status: 503 }), new Response('[]', { status: 200 }), new Response('{"error":"upstream"}', { status: 502 })],
      out,
    );
    const read = searchTokens(c, { query: 'SOL' });
    // The retry waits on the manual clock: advance until the read settles.
    let settled = false;
    void read.finally(() => (settled = true));
    while (!settled) {
      await clock.advance(250);
    }
    await expect(read).resolves.toEqual([]);
    await expect(
      c.request({ method: 'POST', path: '/swap/v2/execute', route: '/swap/v2/execute', body: {}, schema: z.unknown(), priority: 0 }),
    ).rejects.toThrow(/502/);
    c.close();
    const lines = out.lines().map((l) => [l.level, l.msg]);
    expect(lines[0]?.[0]).toBe('warn');
    expect(lines[0]?.[1]).toMatch(/^Jupiter request failed, GET \/tokens\/v2\/search → 503 \w+: upstream: retrying in \d+(s|ms)[\dms]* \(attempt 2 of 4\)$/);
    expect(lines[1]).toEqual([
      'warn',
      expect.stringMatching(/^Jupiter request failed, POST \/swap\/v2\/execute → 502 \w+: upstream: not retried; the caller decides what to do$/),
    ]);
    expect(lines).toHaveLength(2);
  });

  it('a status the call expects is debug, the same status unexpected a refusal at info', async () => {
    const out = new MemoryStream();
    const notFound = (): Response => new Response('{"error":"vault not found"}', { status: 404 });
    const { client: c } = client([notFound(), notFound()], out, 'debug');
    const vault = { method: 'GET', path: '/trigger/v2/vault', route: '/trigger/v2/vault', schema: z.unknown(), priority: 0 } as const;
    await expect(c.request({ ...vault, expectedStatuses: [404] })).rejects.toThrow(/404/);
    await expect(c.request(vault)).rejects.toThrow(/404/);
    c.close();
    expect(out.lines().map((l) => [l.level, l.msg])).toEqual([
      ['debug', expect.stringMatching(/^Jupiter answered GET \/trigger\/v2\/vault → 404 \w+: vault not found: expected, handled by the caller$/)],
      ['info', expect.stringMatching(/^Jupiter refused GET \/trigger\/v2\/vault → 404 \w+: vault not found: not retried; the caller decides what to do$/)],
    ]);
  });
});
