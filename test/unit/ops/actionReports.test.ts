import { describe, expect, it } from 'vitest';
import { reportActions, tokenUnits } from '../../../src/ops/actionReports.js';
import { createLogger } from '../../../src/ops/log.js';
import type { Notification } from '../../../src/ops/notify.js';
import { AuditLog } from '../../../src/store/audit.js';
import { MemoryStream } from '../../support/memoryStream.js';
import { freshStore } from '../store/helpers.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('reportActions', () => {
  it('turns trades, orders and failures into one log line each and webhooks; the rest stays at debug', () => {
    const { db, clock } = freshStore();
    const audit = new AuditLog(db, clock);
    const out = new MemoryStream();
    const sent: Notification[] = [];
    const stop = reportActions({ audit, log: createLogger({ destination: out }), notify: (n) => sent.push(n) });

    audit.append({ kind: 'intent.signed', strategy: 's', intentId: 'i1', data: {} });
    audit.append({ kind: 'order.placed', strategy: 's', intentId: 'i1', data: { orderId: 'o-1' } });
    audit.append({
      kind: 'fill',
      strategy: 's',
      intentId: 'i1',
      signature: 'sig1',
      mint: USDC,
      amount: '150250000',
      decimals: 6,
      data: { source: 'trigger', in: { mint: SOL, amount: '1000000000', decimals: 9 }, out: { mint: USDC, amount: '150250000', decimals: 6 } },
    });
    audit.append({
      kind: 'intent.failed',
      strategy: 's',
      intentId: 'i2',
      data: { code: 'LANDED_FAILED', message: 'the transaction landed and failed on chain' },
    });
    stop();
    audit.append({ kind: 'order.placed', strategy: 's', data: { orderId: 'after-stop' } });

    const lines = out.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['info', 'vault order placed: o-1'],
      ['info', `fill (trigger): 1 ${SOL} → 150.25 ${USDC}`],
      ['warn', 'intent failed: the transaction landed and failed on chain'],
    ]);
    expect(sent).toEqual([
      { type: 'order', strategy: 's', action: 'placed', orderId: 'o-1' },
      { type: 'fill', strategy: 's', orderKind: 'trigger', sold: { mint: SOL, amount: '1' }, bought: { mint: USDC, amount: '150.25' }, signature: 'sig1' },
    ]);
  });

  it('writes base units in token units exactly', () => {
    expect(tokenUnits('1500000', 6)).toBe('1.5');
    expect(tokenUnits('5', 9)).toBe('0.000000005');
    expect(tokenUnits('42', 0)).toBe('42');
    expect(tokenUnits('100000000', 6)).toBe('100');
  });
});

describe('prediction sales', () => {
  it('a prediction fill is a `sell` webhook with the rule that fired, the contracts and the proceeds', () => {
    const { db, clock } = freshStore();
    const audit = new AuditLog(db, clock);
    const sent: Notification[] = [];
    const stop = reportActions({ audit, log: createLogger({ destination: new MemoryStream() }), notify: (n) => sent.push(n) });
    audit.append({
      kind: 'fill',
      strategy: 'btc-no',
      intentId: 'btc-no/5310be30d1a0/lock-in-half/BpufLEwpsA9DwVizQoZsiXXmFEFRva3MCPU2AMmAnXK9',
      signature: 'sig2',
      mint: USDC,
      amount: '4200000',
      decimals: 6,
      data: { source: 'prediction', in: { mint: 'market-1', amount: '10000000', decimals: 6 }, out: { mint: USDC, amount: '4200000', decimals: 6 } },
    });
    stop();
    expect(sent).toEqual([
      {
        type: 'sell',
        strategy: 'btc-no',
        position: 'BpufLEwpsA9DwVizQoZsiXXmFEFRva3MCPU2AMmAnXK9',
        rule: 'lock-in-half',
        contracts: '10',
        proceedsMicroUsd: '4200000',
        signature: 'sig2',
      },
    ]);
  });
});
