import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/config/diagnostics.js';
import { paperTokenSearch } from '../../../src/sim/paperTokenSearch.js';
import { parseStrategyText } from '../../../src/strategies/parseStrategy.js';
import type { TokenCandidate, TokenPinLookup, TokenSearch } from '../../../src/strategies/tokenResolution.js';
import { resolveTokens } from '../../../src/strategies/tokenResolution.js';
import { JUP_MINT, SOL_MINT } from './helpers.js';
import { DEFAULT_STRATEGY_LIMITS } from '../../../src/strategies/strategyLimits.js';

const NO_PINS: TokenPinLookup = { get: () => undefined };
const dca = (buy: string, extra = ''): string => `name: d\nkind: dca\nbuy: ${buy}\namount: "5"\nschedule: { cron: "0 9 * * *", timezone: UTC }\n${extra}`;

async function resolve(text: string, search: TokenSearch = paperTokenSearch, pins: TokenPinLookup = NO_PINS) {
  const parsed = parseStrategyText(text, 's.yaml', DEFAULT_STRATEGY_LIMITS);
  if (!parsed.ok) throw new Error('test strategy invalid');
  const result = await resolveTokens(parsed.strategy, search, pins);
  return result.ok ? { tokens: result.tokens, pins: result.newPins } : { errors: result.diagnostics.map(formatDiagnostic) };
}

const token = (over: Partial<TokenCandidate> & { id: string }): TokenCandidate => ({ symbol: 'ABC', name: 'Abc', decimals: 6, isVerified: true, ...over });

describe('resolveTokens', () => {
  it('picks the one verified token among imitations (the simulator has a fake JUP)', async () => {
    const result = await resolve(dca('JUP'));
    expect(result.tokens?.buy).toMatchObject({ mint: JUP_MINT, decimals: 6, verified: true, pinned: false });
    expect(result.pins).toContainEqual({ strategy: 'd', symbol: 'JUP', mint: JUP_MINT, decimals: 6 });
  });

  it('resolves by name and by mint', async () => {
    expect((await resolve(dca('Jupiter'))).tokens?.buy?.mint).toBe(JUP_MINT);
    expect((await resolve(dca(SOL_MINT))).tokens?.buy).toMatchObject({ mint: SOL_MINT, symbol: 'SOL', decimals: 9 });
  });

  it('rejects two verified tokens with one symbol, listing both mints', async () => {
    const search: TokenSearch = (q) =>
      q === 'ABC'
        ? Promise.resolve([token({ id: 'Mint1111111111111111111111111111111' }), token({ id: 'Mint2222222222222222222222222222222' })])
        : paperTokenSearch(q);
    expect((await resolve(dca('ABC'), search)).errors).toEqual([
      's.yaml:3:6: buy: "ABC" is ambiguous: 2 verified tokens match: ABC Mint1111111111111111111111111111111 "Abc" (verified); ABC Mint2222222222222222222222222222222 "Abc" (verified); write the mint instead',
    ]);
  });

  it('treats isSus as unverified even when isVerified is true, unless allow_unverified', async () => {
    const search: TokenSearch = (q) =>
      q === 'ABC' ? Promise.resolve([token({ id: 'Mint1111111111111111111111111111111', audit: { isSus: true } })]) : paperTokenSearch(q);
    expect((await resolve(dca('ABC'), search)).errors?.[0]).toMatch(
      /matches no verified token, only: ABC Mint1111111111111111111111111111111 "Abc" \(verified, flagged isSus\)/,
    );
    expect((await resolve(dca('ABC', 'allow_unverified: true\n'), search)).tokens?.buy).toMatchObject({ verified: false });
  });

  it('accepts the flagged simulator token only with allow_unverified', async () => {
    expect((await resolve(dca('MOONRUG'))).errors?.[0]).toMatch(/flagged isSus/);
    expect((await resolve(dca('MOONRUG', 'allow_unverified: true\n'))).tokens?.buy?.symbol).toBe('MOONRUG');
  });

  it('keeps a pinned mint whatever search says now', async () => {
    const pins: TokenPinLookup = {
      get: (strategy, symbol) => (strategy === 'd' && symbol === 'JUP' ? { mint: 'Pinned11111111111111111111111111111', decimals: 6 } : undefined),
    };
    const search: TokenSearch = () => Promise.reject(new Error('search must not be asked for a pinned symbol'));
    const usdc = {
      get: (s: string, sym: string) => pins.get(s, sym) ?? (sym === 'USDC' ? { mint: 'Usdc111111111111111111111111111111', decimals: 6 } : undefined),
    };
    const result = await resolve(dca('JUP'), search, usdc);
    expect(result.tokens?.buy).toMatchObject({ mint: 'Pinned11111111111111111111111111111', pinned: true });
    expect(result.pins).toEqual([]);
  });

  it('reports a failed search at the field', async () => {
    const search: TokenSearch = () => Promise.reject(new Error('HTTP 503'));
    expect((await resolve(dca('SOL'), search)).errors).toEqual([
      's.yaml:3:6: buy: token search for "SOL" failed: HTTP 503',
      's.yaml:1:1: pay_with (default USDC): token search for "USDC" failed: HTTP 503',
    ]);
  });
});
