import { describe, expect, it } from 'vitest';
import { parsePriceFile } from '../../../src/backtest/priceFile.js';
import { resolveSimToken } from '../../../src/backtest/simTokens.js';
import { summarize } from '../../../src/backtest/summary.js';
import { StrategyVersions } from '../../../src/store/strategyVersions.js';
import { TokenPins } from '../../../src/store/tokenPins.js';
import { freshStore } from '../store/helpers.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';

describe('the backtest summary', () => {
  it('has one row per strategy, by the name it declares, and says why one made no trade', () => {
    const { db, clock } = freshStore();
    const t0 = clock.now();
    const versions = new StrategyVersions(db);
    const pins = new TokenPins(db);
    // File names differ from the names the strategies declare: the rows carry the declared names only.
    versions.record({ strategy: 'sol-dca', sha256: 'a'.repeat(64), yaml: 'name: sol-dca', sourceFile: '/s/dca.yaml' }, t0);
    versions.record({ strategy: 'bonk-stop', sha256: 'b'.repeat(64), yaml: 'name: bonk-stop', sourceFile: '/s/bonk.yaml' }, t0);
    versions.record({ strategy: 'sol-broke', sha256: 'c'.repeat(64), yaml: 'name: sol-broke', sourceFile: '/s/broke.yaml' }, t0);
    pins.pin({ strategy: 'sol-dca', symbol: 'SOL', mint: SOL, decimals: 9 }, t0);
    pins.pin({ strategy: 'sol-dca', symbol: 'USDC', mint: USDC, decimals: 6 }, t0);
    pins.pin({ strategy: 'bonk-stop', symbol: 'BONK', mint: BONK, decimals: 5 }, t0);
    pins.pin({ strategy: 'sol-broke', symbol: 'SOL', mint: SOL, decimals: 9 }, t0);
    db.prepare(
      `INSERT INTO intents (id, strategy, kind, params, state, error_code, error_message, created_at, updated_at)
       VALUES ('i-1', 'sol-broke', 'swap', '{}', 'failed', 'SWAP_ORDER_INSUFFICIENT_FUNDS', 'the taker lacks the input amount', ?, ?)`,
    ).run(t0, t0);
    const history = parsePriceFile(`time,token,usd\n${t0},SOL,150\n${t0 + 60_000},SOL,151\n`, 'p.csv', resolveSimToken);

    const summary = summarize(db, history, { from: t0, to: t0 + 60_000, seed: 's', files: ['dca.yaml', 'bonk.yaml', 'broke.yaml', 'typo.yaml'] });

    expect(summary.strategies.map((s) => [s.strategy, s.trades])).toEqual([
      ['bonk-stop', 0],
      ['sol-broke', 0],
      ['sol-dca', 0],
    ]);
    expect(summary.notes).toEqual([
      'bonk-stop: no trade: the price history has no price for its tokens (BONK)',
      'sol-broke: no trade: 1 intent, none filled; 1 failed, the last with SWAP_ORDER_INSUFFICIENT_FUNDS: the taker lacks the input amount',
      'sol-dca: no trade: no rule asked to trade over the history (nothing was due, or the wallet held nothing it could trade)',
      'typo.yaml: no strategy loaded from it (backtest.log says why)',
    ]);
  });
});
