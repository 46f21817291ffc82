import { describe, expect, it } from 'vitest';
import { fillWords, goneFundsWords, reportActions } from '../../../src/ops/actionReports.js';
import { tokenNamer } from '../../../src/audit/tokenNames.js';
import { humanAmount, humanUsd, tokenUnits } from '../../../src/money/humanNumbers.js';
import { createLogger } from '../../../src/ops/log.js';
import type { Notification } from '../../../src/ops/notification.js';
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
      ['info', 's: vault order placed (o-1)'],
      ['info', 's: sold 1 SOL for 150.25 USDC at $150.25 per SOL (vault order)'],
      [
        'warn',
        's: intent failed (LANDED_FAILED): the transaction landed and failed on chain; the rule tries again as a new intent in 1m if it still fires (a DCA run: retry 1 of 3)',
      ],
    ]);
    expect(sent).toEqual([
      { type: 'order', strategy: 's', action: 'placed', orderId: 'o-1' },
      {
        type: 'fill',
        strategy: 's',
        orderKind: 'trigger',
        sold: { mint: SOL, symbol: 'SOL', amount: '1' },
        bought: { mint: USDC, symbol: 'USDC', amount: '150.25' },
        signature: 'sig1',
      },
    ]);
  });

  it('keeps the wallet records at debug: a balance change or a basis is never a warning or a webhook', () => {
    const { db, clock } = freshStore();
    const audit = new AuditLog(db, clock);
    const out = new MemoryStream();
    const sent: Notification[] = [];
    const stop = reportActions({ audit, log: createLogger({ destination: out, level: 'debug' }), notify: (n) => sent.push(n) });
    audit.append({ kind: 'wallet.balances', data: { balances: [{ mint: SOL, decimals: 9, amount: '5000000000' }], readAt: 1 } });
    audit.append({
      kind: 'basis.observed',
      mint: SOL,
      amount: '5000000000',
      decimals: 9,
      data: { mint: SOL, decimals: 9, units: '5000000000', priceUsd: '150', at: 1 },
    });
    audit.append({ kind: 'basis.set', mint: SOL, decimals: 9, data: { mint: SOL, decimals: 9, priceUsd: '120', at: 1 } });
    stop();
    const lines = out.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['debug', 'wallet.balances'],
      ['debug', 'basis.observed'],
      ['debug', 'basis.set'],
    ]);
    expect(sent).toEqual([]);
  });

  it('writes base units in token units exactly', () => {
    expect(tokenUnits('1500000', 6)).toBe('1.5');
    expect(tokenUnits('5', 9)).toBe('0.000000005');
    expect(tokenUnits('42', 0)).toBe('42');
    expect(tokenUnits('100000000', 6)).toBe('100');
  });

  it('rounds amounts and prices for reading, never past the token precision', () => {
    expect(humanAmount('9999990000', 9)).toBe('9.99999');
    expect(humanAmount('2499998750', 9)).toBe('2.5');
    expect(humanAmount('123456789012', 6)).toBe('123,457');
    expect(humanAmount('1234567891', 3)).toBe('1,234,568');
    expect(humanAmount('4512345', 9)).toBe('0.004512');
    expect(humanAmount('5', 9)).toBe('0.000000005');
    expect(humanAmount('1', 2)).toBe('0.01');
    expect(humanAmount('8295001', 6, { usd: true })).toBe('8.3');
    expect(humanAmount('0', 6)).toBe('0');
    expect(humanUsd('150.032818429724727594')).toBe('$150.03');
    expect(humanUsd(65012.4)).toBe('$65,012');
    expect(humanUsd(0.000023456789)).toBe('$0.000023457');
    expect(humanUsd(-3.456)).toBe('-$3.46');
  });

  it('prices a swap between two tokens nowhere, and a sale or purchase per token', () => {
    const leg = (mint: string, symbol: string, amount: string, decimals: number) => ({ mint, symbol, amount, decimals });
    expect(fillWords(leg(SOL, 'SOL', '1000000000', 9), leg('JUP', 'JUP', '180500000', 6))).toBe('swapped 1 SOL for 180.5 JUP');
    expect(fillWords(leg(USDC, 'USDC', '25000000', 6), leg(SOL, 'SOL', '166000000', 9))).toBe('bought 0.166 SOL for 25 USDC at $150.60 per SOL');
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

describe('goneFundsWords', () => {
  const name = tokenNamer(new Map([[SOL, { symbol: 'SOL' }]]));
  const order = { inputMint: SOL, inputDecimals: 9, remaining: '2500000000' };

  it('says nothing is stranded when the vault holds none of the mint', () => {
    expect(goneFundsWords({ ...order, vaultFunds: { kind: 'held', vault: 'V1', mint: SOL, amount: '0' } }, name)).toBe(
      'The vault V1 holds no SOL: nothing of it is stranded there (the order held 2.5 SOL (2500000000 base units)).',
    );
  });

  it('says the funds cannot be checked through the API when it knows no vault, or why the check failed', () => {
    expect(goneFundsWords({ ...order, vaultFunds: { kind: 'no-vault', mint: SOL } }, name)).toBe(
      'The Trigger API knows no vault for this wallet any more: whether 2.5 SOL (2500000000 base units) is stranded cannot be checked through it; look up the vault on chain.',
    );
    expect(goneFundsWords({ ...order, vaultFunds: { kind: 'unknown', mint: SOL, reason: 'RPC_TIMEOUT' } }, name)).toBe(
      'Whether funds are stranded in the vault could not be checked (RPC_TIMEOUT); the order held 2.5 SOL (2500000000 base units).',
    );
  });
});
