/**
 * `jupbot audit basis` and `audit basis set` on docs/audit.md's worked example: the list says each
 * token's basis and where it comes from; the operator's basis is one chained action that the P&L
 * then uses; unknown tokens, dollars and bad numbers are refused without writing; a daemon writing
 * the same database meanwhile keeps one chain.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { AuditLog } from '../../../src/store/audit.js';
import { openDatabase } from '../../../src/store/db.js';
import { basisExampleDatabase, exampleDatabase } from '../audit/exampleDatabase.js';
import { audit, START } from './auditHarness.js';

const SOL = 'So11111111111111111111111111111111111111112';
const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';

const actionCount = (file: string): number => {
  const db = openDatabase(file, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM actions').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('jupbot audit basis', () => {
  it('lists each token held before jupbot with its basis, source and time', async () => {
    const file = basisExampleDatabase();
    const table = await audit(['--db', file, 'basis']);
    expect(table.code).toBe(0);
    expect(table.stdout).toBe(
      [
        'token  held before jupbot  basis  source            when',
        'JUP                   500  $0.04  first price seen  2026-01-01T00:00:00.000Z',
        'SOL                     1   $120  set by operator   2026-01-01T00:00:30.000Z',
        '',
      ].join('\n'),
    );
    expect(JSON.parse((await audit(['--db', file, 'basis', '--json'])).stdout)).toEqual([
      {
        mint: JUP,
        symbol: 'JUP',
        decimals: 6,
        heldBefore: true,
        units: '500000000',
        amount: '500',
        basis: { source: 'first-price', priceUsd: '0.04', at: '2026-01-01T00:00:00.000Z' },
      },
      {
        mint: SOL,
        symbol: 'SOL',
        decimals: 9,
        heldBefore: true,
        units: '1000000000',
        amount: '1',
        basis: { source: 'operator', priceUsd: '120', at: '2026-01-01T00:00:30.000Z' },
      },
    ]);
  });

  it("records the operator's basis as one chained action; the P&L realizes against it", async () => {
    const file = basisExampleDatabase();
    const before = actionCount(file);
    const set = await audit(['basis', 'set', 'jup', '0.045', '--db', file]);
    expect([set.code, set.stdout, set.stderr]).toEqual([
      0,
      `JUP (${JUP}): basis $0.045 per token, set by operator for 2026-01-01T01:00:00.000Z (action ${before + 1})\n`,
      '',
    ]);
    expect(actionCount(file)).toBe(before + 1);
    const listed = JSON.parse((await audit(['--db', file, 'basis', '--json'])).stdout) as { symbol: string; basis: unknown }[];
    expect(listed.map((r) => [r.symbol, r.basis])).toEqual([
      ['JUP', { source: 'operator', priceUsd: '0.045', at: '2026-01-01T01:00:00.000Z' }],
      ['SOL', { source: 'operator', priceUsd: '120', at: '2026-01-01T00:00:30.000Z' }],
    ]);
    // jup-exit's 300 JUP now cost 300 × 0.045 = 13.5 of basis: 15 − 13.5 = 1.5.
    const pnl = JSON.parse((await audit(['--db', file, 'pnl', '--json', '--strategy', 'jup-exit'])).stdout) as {
      total: { realizedUsd: string; basisCostUsd: string };
    };
    expect([pnl.total.realizedUsd, pnl.total.basisCostUsd]).toEqual(['1.5', '13.5']);
    // --at names the instant the price is for; the mint works as well as the symbol.
    const at = await audit(['basis', 'set', SOL, '118.5', '--at', '2026-01-01T00:00Z', '--db', file]);
    expect(at.stdout).toBe(`SOL (${SOL}): basis $118.5 per token, set by operator for 2026-01-01T00:00:00.000Z (action ${before + 2})\n`);
    expect((await audit(['--db', file, 'verify'])).code).toBe(0);
  });

  it('refuses an unknown token, a dollar and a bad number with exit 1, writing nothing', async () => {
    const file = basisExampleDatabase();
    const before = actionCount(file);
    const unknown = await audit(['basis', 'set', 'WIF', '2', '--db', file]);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      `WIF: no token of this database has that symbol or mint (it knows JUP (${JUP}), SOL (${SOL}), USDC (EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v))`,
    ]);
    const dollar = await audit(['basis', 'set', 'USDC', '1', '--db', file]);
    expect([dollar.code, dollar.stderr]).toEqual([1, 'USDC is a dollar: P&L is counted in it, it has no basis to set']);
    for (const bad of ['-1', '1e3', 'abc', '0.1234567890123456789', '1,5']) {
      const run = await audit(['basis', 'set', 'SOL', bad, '--db', file]);
      expect([run.code, run.stderr]).toEqual([1, `${bad}: not a dollar price: write a plain decimal such as 0.04 (no sign, no exponent, at most 18 places)`]);
    }
    expect(actionCount(file)).toBe(before);
  });

  it('says so when no balances reading is recorded yet', async () => {
    const file = exampleDatabase();
    const run = await audit(['basis', 'set', 'SOL', '150', '--db', file]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('note: no balances reading is recorded yet: this basis applies if the wallet holds SOL at the first one the daemon records\n');
    expect((await audit(['--db', file, 'basis'])).stdout).toBe(
      [
        'token  held before jupbot  basis  source           when',
        'SOL                     —   $150  set by operator  2026-01-01T01:00:00.000Z',
        '— held before jupbot: not held at the first balances reading; its basis applies to nothing',
        '',
      ].join('\n'),
    );
  });

  it('writes beside a running daemon: both extend one chain', async () => {
    const file = basisExampleDatabase();
    // The "daemon": its own connection and audit log, its chain head cached before the command writes.
    const db = openDatabase(file);
    const daemon = new AuditLog(db, new ManualClock(START + 7_200_000));
    try {
      const head = daemon.head.id;
      expect((await audit(['basis', 'set', 'SOL', '125', '--db', file])).code).toBe(0);
      const next = daemon.append({ kind: 'daemon.stopped', data: { reason: 'test' } });
      expect(next.id).toBe(head + 2);
    } finally {
      db.close();
    }
    expect((await audit(['--db', file, 'verify'])).stdout).toMatch(
      /^ok: 13 actions, head 13 [0-9a-f]{64}; tables as sealed: fills 7, intents 0, trigger_orders 0\n$/,
    );
  });
});
