/**
 * `jupbot status` rendered from fixture documents: the control state and the protections when the
 * daemon serves them (a halt on the first line), and an older document without them (nor clock,
 * balances, grouped orders or unrealized P&L) still printed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusText } from '../../../src/cli/status.js';
import { percentText } from '../../../src/cli/statusSections.js';
import { repoRoot } from '../../support/cli.js';

type Doc = Parameters<typeof statusText>[0];
const fixture = (): Record<string, unknown> => JSON.parse(readFileSync(join(repoRoot, 'test/fixtures/status/halted.json'), 'utf8')) as Record<string, unknown>;
const ASKED_AT = Date.UTC(2030, 0, 1);

describe('statusText', () => {
  it('puts a halt alone on the first line, pauses under the identity, protections with their headroom', () => {
    const lines = statusText(fixture() as unknown as Doc, ASKED_AT).split('\n');
    expect(lines[0]).toBe('HALTED since 2026-11-02T08:01:40Z by operator via control socket: exchange incident (open orders cancelled)');
    expect(lines[1]).toMatch(/^jupbot 0\.1\.0, LIVE mode/);
    expect(lines).toContain("clock: times in UTC, on the daemon's wall clock");
    expect(lines).toContain('PAUSED: sol-take-profit since 2026-11-02T08:00:50Z by operator: checking the stop');
    expect(lines).toContain('protection                        limit                      now  headroom  state');
    expect(lines).toContain('max_daily_loss                  250 USD                   80 USD   170 USD  ok');
    expect(lines).toContain(
      'loss_cooldown   3 losing exits in a row  3 losing exits in a row         0  TRIPPED since 2026-11-02T08:00:00Z: pauses buying; clears at 2026-11-02T12:00:00Z (4 h after the third loss)',
    );
    // The daemon's clock, not the asker's.
    expect(lines).toContain('as of 2026-11-02T08:03:00Z; more: jupbot audit pnl, jupbot report --out report.html, docs/operations.md');
  });

  it('an OTOCO shows its entry, then its children; a crossed trigger says so; unpriced balances are named', () => {
    const text = statusText(fixture() as unknown as Doc, ASKED_AT);
    expect(text).toContain(
      [
        'open order    strategy  type         state   selling  price now  trigger             distance',
        '0123456789ab  sol-dip   price otoco  open   100 USDC   SOL $150  entry ≤ $140        -6.67% (must fall)',
        '                                                                 take-profit ≥ $160  +6.67% (must rise)',
        '                                                                 stop loss ≤ $151    +0.67% (crossed: should fill)',
      ].join('\n'),
    );
    expect(text).toContain('wallet value $675.00 (without BONK: no price), read at 2026-11-02T08:02:50Z; held in open orders, not counted: 100 USDC');
    expect(text).toMatch(/^sol-dip +SOL +1 +\$162\.50 +\$150 +\$150\.00 +-\$12\.50$/m);
    expect(text).toContain('unrealized P&L -$12.50 at 2026-11-02T08:03:00Z; basis: the basis, in words');
  });

  it('tolerates a document without control, protections, clock, balances, grouped orders or unrealized P&L', () => {
    const doc = fixture();
    for (const key of ['control', 'protections', 'clock', 'balances', 'orders', 'unrealized']) delete doc[key];
    doc['openOrders'] = [
      {
        id: 'abcdefabcdef01',
        family: 'price',
        orderType: 'single',
        strategy: 'sol-take-profit',
        adopted: false,
        state: 'open',
        input: { mint: 'm', symbol: 'SOL', amount: '2', remaining: null },
        output: { mint: 'u', symbol: 'USDC', received: null },
        triggerPriceUsd: '180',
        expiresAt: null,
      },
    ];
    const text = statusText(doc as unknown as Doc, ASKED_AT);
    expect(text.split('\n')[0]).toMatch(/^jupbot 0\.1\.0, LIVE mode/);
    expect(text).not.toContain('HALTED');
    expect(text).not.toContain('PAUSED');
    expect(text).toContain('clock: times in UTC\n');
    expect(text).toMatch(/^abcdefabcdef +sol-take-profit +price single +open +2 SOL +\$180$/m);
    expect(text).toContain('protections: none configured');
    expect(text).toContain('as of 2030-01-01T00:00:00Z;');
  });

  it('writes a signed percent to two places', () => {
    expect(['20.407444318720068775', '-9.694416760959948418', '0', '-0.001', '0.005'].map(percentText)).toEqual([
      '+20.41%',
      '-9.69%',
      '0.00%',
      '0.00%',
      '+0.01%',
    ]);
  });
});
