import { describe, expect, it } from 'vitest';
import { parsePriceFile, PriceFileError } from '../../../src/backtest/priceFile.js';
import { resolveSimToken } from '../../../src/backtest/simTokens.js';

const SOL = 'So11111111111111111111111111111111111111112';

function problems(text: string): string[] {
  try {
    parsePriceFile(text, 'p.csv', resolveSimToken);
  } catch (error) {
    if (error instanceof PriceFileError) return error.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message}`);
    throw error;
  }
  return [];
}

describe('price files', () => {
  it('reads symbols, mints and marks, groups rows by instant and finds the resolution', () => {
    const history = parsePriceFile(
      [
        'time,token,usd',
        '2026-01-01T00:00:00Z,SOL,150',
        `2026-01-01T00:00:00Z,${SOL},151`,
        '1767225660000,jup,0.8',
        '2026-01-01T00:03:00+00:00,prediction:BTC-1006-M1:no,0.57',
        '',
      ].join('\r\n'),
      'p.csv',
      resolveSimToken,
    );
    expect(history.steps.map((s) => [s.at, s.points.map((p) => `${p.key}=${p.text}`)])).toEqual([
      [Date.UTC(2026, 0, 1), [`${SOL}=150`, `${SOL}=151`]],
      [Date.UTC(2026, 0, 1, 0, 1), ['JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN=0.8']],
      [Date.UTC(2026, 0, 1, 0, 3), ['prediction:BTC-1006-M1:no=0.57']],
    ]);
    expect(history.resolutionMs).toBe(60_000);
    expect(history.keys).toEqual(['JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN', SOL, 'prediction:BTC-1006-M1:no']);
  });

  it('reads what `jupbot prices export` writes (time, token, mint, usd; the mint wins)', () => {
    const history = parsePriceFile(`time,token,mint,usd\r\n2026-01-01T00:00:00.000Z,MYSOL,${SOL},150.25\r\n`, 'e.csv', resolveSimToken);
    expect(history.steps[0]?.points).toEqual([{ key: SOL, usd: 150_250_000_000_000_000_000n, text: '150.25' }]);
  });

  it('names every problem at its line and column, at once', () => {
    expect(
      problems(
        [
          'time,token,usd',
          '2026-01-01 09:00,SOL,150',
          '2026-01-01T00:00:00Z,NOPE,1',
          '2026-01-01T00:00:00Z,SOL,-3',
          '2026-01-01T00:00:00Z,prediction:X:no,1.5',
        ].join('\n'),
      ),
    ).toEqual([
      'p.csv:2:1: cannot read time "2026-01-01 09:00": use epoch ms or an ISO date-time with its zone (2026-01-01T09:30:00Z)',
      'p.csv:3:22: unknown token "NOPE": a backtest trades the simulated market, which has SOL, USDC, USDT, JupUSD, JUP, BONK, WIF, JitoSOL, PYTH (by symbol or mint)',
      'p.csv:4:26: cannot read price "-3": a non-negative decimal such as 151.25',
      'p.csv:5:38: a mark is at most 1 USD (a contract pays 1 USD), got 1.5',
    ]);
    expect(problems('when,what,price\n1,SOL,1\n')).toEqual([
      'p.csv:1:1: the header must name the columns time, usd and token (or mint); found: when, what, price',
    ]);
    expect(problems('time,token,usd\n')).toEqual(['p.csv:1:1: the file holds no prices']);
  });
});
