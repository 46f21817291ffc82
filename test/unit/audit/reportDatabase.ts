/**
 * A paper run's database as the report reads it, one hour long from START, with figures simple
 * enough to check by hand: the wallet's balances as the daemon records them (`wallet.balances`),
 * kept prices every 15 minutes, a DCA buy and a sale of SOL, an OCO (two legs) and a DCA vault order
 * still open, a DCA round and a prediction sale. The wallet over the hour (USDC counts as $1):
 *
 * | at      | what                                   | wallet (+ vault)                                  | equity   |
 * | ------- | -------------------------------------- | ------------------------------------------------- | -------- |
 * | 0       | SOL 150, BONK 0.0000199                | 10 SOL, 1,000 USDC, 5,000,000 BONK                | 2,599.5  |
 * | 15m     | SOL 160                                |                                                   | 2,699.5  |
 * | 20m     | buy 1 SOL for 160 USDC (read at 20m10s)| 11 SOL, 840 USDC                                  | 2,699.5  |
 * | 30m     | SOL 170                                |                                                   | 2,809.5  |
 * | 35m     | OCO on 5 SOL placed (read at 35m20s)   | 6 SOL + 5 in the vault                            | 2,809.5  |
 * | 40m     | DCA order of 80 USDC placed            | 760 USDC + 80 in the vault                        | 2,809.5  |
 * | 45m     | SOL 172, BONK 0.00002                  |                                                   | 2,832    |
 * | 50m     | DCA round: 40 USDC → 50 JUP (50m5s)    | 50 JUP; 40 USDC left in the vault                 | 2,832    |
 * | 55m     | sell 10 NBA-1 YES for 5.88 USDC        | 765.88 USDC                                       | 2,837.88 |
 * | 60m     | SOL 175, JUP 0.85                      |                                                   | 2,873.38 |
 * | 62m     | sell 0.5 SOL for 87.5 USDC             | 5.5 SOL, 853.38 USDC                              | 2,873.38 |
 */
import { join } from 'node:path';
import { ManualClock } from '../../../src/clock.js';
import { SOL_MINT, USDC_MINT } from '../../../src/solana/programIds.js';
import { AuditLog } from '../../../src/store/audit.js';
import { type FillInput, recordFill } from '../../../src/store/fills.js';
import { Journal } from '../../../src/store/journal.js';
import { openStore } from '../../../src/store/migrate.js';
import { recordPriceSamples } from '../../../src/store/priceSamples.js';
import { TokenPins } from '../../../src/store/tokenPins.js';
import { type OrderColumns, TriggerOrders } from '../../../src/store/triggerOrders.js';
import { START } from '../cli/auditHarness.js';
import { tempDir } from '../store/helpers.js';

export const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
export const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
export const NBA_YES = 'prediction:NBA-1:yes';
export const MIN = 60_000;
/** The instant the report is made at. */
export const NOW = START + 65 * MIN;

export interface ReportDatabaseOptions {
  /** Record `wallet.balances` actions. @default true */
  readonly balances?: boolean;
  /** The `mode` of `daemon.started`; null: a start that records none; undefined: no start at all. @default 'paper' */
  readonly mode?: string | null | undefined;
}

const EVERY = 15 * MIN;

export function reportDatabase(options: ReportDatabaseOptions = {}): string {
  const clock = new ManualClock(START);
  const file = join(tempDir(), 'jupbot-paper.sqlite');
  const { db } = openStore(file, { clock, synchronous: 'NORMAL' });
  const log = new AuditLog(db, clock);
  const journal = new Journal(db, log, clock);
  const orders = new TriggerOrders(db, log);
  const pins = new TokenPins(db);
  pins.pin({ strategy: 'jup-dca', symbol: 'JUP', mint: JUP, decimals: 6 }, START);
  pins.pin({ strategy: 'bonk', symbol: 'BONK', mint: BONK, decimals: 5 }, START);
  const at = (minutes: number, seconds = 0): void => clock.setWallTime(START + minutes * MIN + seconds * 1000);
  const mode = 'mode' in options ? options.mode : 'paper';
  const balances = (readAt: number, held: Record<string, [number, string]>): void => {
    if (options.balances === false) return;
    const list = Object.entries(held)
      .map(([mint, [decimals, amount]]) => ({ mint, decimals, amount }))
      .sort((a, b) => (a.mint < b.mint ? -1 : 1));
    log.append({ kind: 'wallet.balances', data: { balances: list, readAt } });
  };
  const prices = (minutes: number, sol: string, jup: string, bonk: string, yes: string): void => {
    at(minutes);
    const list = [
      { mint: SOL_MINT, usd: sol },
      { mint: JUP, usd: jup },
      { mint: BONK, usd: bonk },
      { mint: USDC_MINT, usd: minutes === 0 ? '1.0001' : '1' },
      { mint: NBA_YES, usd: yes },
    ];
    recordPriceSamples(db, list, clock.now(), EVERY);
  };
  const plan = (id: string, strategy: string, rule: string, kind: string, reason: string): void => {
    journal.plan({ id, strategy, rule, kind, params: {}, reason });
  };
  const fill = (f: Omit<FillInput, 'idx' | 'at'>, intentId: string, strategy: string): void => {
    db.transaction(() => recordFill(db, log, { ...f, idx: 0, at: clock.now() }, { intentId, strategy }, clock.now()))();
  };
  const order = (c: Partial<OrderColumns> & Pick<OrderColumns, 'id'>, intentId: string, strategy: string, decimals: [number, number]): void => {
    const columns: OrderColumns = {
      family: 'price',
      orderType: 'oco',
      state: 'open',
      rawState: 'open',
      inputMint: SOL_MINT,
      outputMint: USDC_MINT,
      inputAmount: '5000000000',
      remaining: '5000000000',
      inputUsed: null,
      outputAmount: null,
      triggerMint: SOL_MINT,
      condition: null,
      triggerPriceUsd: null,
      slippageBps: 50,
      trailingBps: null,
      expiresAt: START + 7 * 24 * 60 * MIN,
      depositSignature: null,
      raw: JSON.stringify({ id: c.id }),
      createdAt: clock.now(),
      updatedAt: clock.now(),
      ...c,
    };
    orders.upsert(columns, { intentId, strategy, inputDecimals: decimals[0], outputDecimals: decimals[1], depositSignature: 'dep-1' }, clock.now());
  };

  if (mode !== undefined) log.append({ kind: 'daemon.started', data: { version: '0.1.0', instanceId: 'test', ...(mode === null ? {} : { mode }) } });
  prices(0, '150', '0.8', '0.0000199', '0.5');
  balances(START, { [SOL_MINT]: [9, '10000000000'], [USDC_MINT]: [6, '1000000000'], [BONK]: [5, '500000000000'] });
  prices(15, '160', '0.8', '0.0000199', '0.5');

  at(20);
  plan('sol-dca/1/run/1', 'sol-dca', 'run', 'swap', 'scheduled buy of SOL with 160 USDC (due 2026-01-01T00:20:00.000Z)');
  fill(
    {
      signature: 'sig-buy',
      source: 'swap',
      inMint: USDC_MINT,
      inAmount: '160000000',
      inDecimals: 6,
      outMint: SOL_MINT,
      outAmount: '1000000000',
      outDecimals: 9,
      fee: { mint: USDC_MINT, amount: '160000', decimals: 6 },
    },
    'sol-dca/1/run/1',
    'sol-dca',
  );
  at(20, 10);
  balances(clock.now(), { [SOL_MINT]: [9, '11000000000'], [USDC_MINT]: [6, '840000000'], [BONK]: [5, '500000000000'] });

  prices(30, '170', '0.8', '0.0000199', '0.5');

  at(35);
  const oco = 'sol-tp/1/take_profit[0]/g0';
  plan(oco, 'sol-tp', 'take_profit[0]', 'place-vault-order', 'take profit on 50% of the position when SOL reaches $180 (stop at $135)');
  order({ id: 'order-tp', condition: 'above', triggerPriceUsd: '180', depositSignature: 'dep-1' }, oco, 'sol-tp', [9, 6]);
  order({ id: 'order-sl', condition: 'below', triggerPriceUsd: '135' }, oco, 'sol-tp', [9, 6]);
  at(35, 20);
  balances(clock.now(), { [SOL_MINT]: [9, '6000000000'], [USDC_MINT]: [6, '840000000'], [BONK]: [5, '500000000000'] });

  at(40);
  const dca = 'jup-dca/1/vault_dca/g0';
  plan(dca, 'jup-dca', 'vault_dca', 'place-dca-order', 'place a DCA order buying JUP with 2 × 40 USDC, one every 10m');
  const dcaOrder = { id: 'dca-1', family: 'dca' as const, orderType: 'time_based', state: 'active', rawState: 'active', inputMint: USDC_MINT, outputMint: JUP };
  order({ ...dcaOrder, inputAmount: '80000000', remaining: '80000000', triggerMint: null, slippageBps: null, expiresAt: null }, dca, 'jup-dca', [6, 6]);
  balances(clock.now(), { [SOL_MINT]: [9, '6000000000'], [USDC_MINT]: [6, '760000000'], [BONK]: [5, '500000000000'] });

  prices(45, '172', '0.8', '0.00002', '0.6');

  at(50);
  fill(
    {
      signature: 'sig-dca-1',
      source: 'dca',
      inMint: USDC_MINT,
      inAmount: '40000000',
      inDecimals: 6,
      outMint: JUP,
      outAmount: '50000000',
      outDecimals: 6,
      triggerOrderId: 'dca-1',
    },
    dca,
    'jup-dca',
  );
  order(
    { ...dcaOrder, inputAmount: '80000000', remaining: '40000000', triggerMint: null, slippageBps: null, expiresAt: null, raw: '{"round":1}' },
    dca,
    'jup-dca',
    [6, 6],
  );
  at(50, 5);
  balances(clock.now(), { [SOL_MINT]: [9, '6000000000'], [USDC_MINT]: [6, '760000000'], [JUP]: [6, '50000000'], [BONK]: [5, '500000000000'] });

  at(55);
  const exit = 'nba-exit/1/take-profit/pos1';
  plan(exit, 'nba-exit', 'take-profit', 'prediction.sell', 'take-profit: sell the YES position in NBA-1 at $0.60');
  fill(
    {
      signature: 'sig-nba',
      source: 'prediction',
      inMint: NBA_YES,
      inAmount: '10000000',
      inDecimals: 6,
      outMint: USDC_MINT,
      outAmount: '5880000',
      outDecimals: 6,
      fee: { mint: USDC_MINT, amount: '120000', decimals: 6 },
    },
    exit,
    'nba-exit',
  );
  balances(clock.now(), { [SOL_MINT]: [9, '6000000000'], [USDC_MINT]: [6, '765880000'], [JUP]: [6, '50000000'], [BONK]: [5, '500000000000'] });

  prices(60, '175', '0.85', '0.00002', '0.6');

  at(62);
  const sell = 'sol-dca/1/exit/1';
  plan(sell, 'sol-dca', 'exit', 'swap', 'sell half of what the DCA bought, SOL at $175');
  fill(
    {
      signature: 'sig-sell',
      source: 'swap',
      inMint: SOL_MINT,
      inAmount: '500000000',
      inDecimals: 9,
      outMint: USDC_MINT,
      outAmount: '87500000',
      outDecimals: 6,
    },
    sell,
    'sol-dca',
  );
  balances(clock.now(), { [SOL_MINT]: [9, '5500000000'], [USDC_MINT]: [6, '853380000'], [JUP]: [6, '50000000'], [BONK]: [5, '500000000000'] });
  db.close();
  return file;
}
