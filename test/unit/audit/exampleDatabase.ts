/**
 * docs/audit.md's worked example as a database file (closed), one fill a minute from START: the six
 * fills of strategies `sol-tp` and `nba-exit` (`exampleDatabase`), and with the wallet's units held
 * before jupbot (`basisExampleDatabase`): the first balances reading and the bases of what it held
 * at START, a seventh fill (`jup-exit` selling JUP it never bought), and SOL's kept price at
 * START + 8 minutes.
 */
import { join } from 'node:path';
import { ManualClock } from '../../../src/clock.js';
import { SOL_MINT, USDC_MINT } from '../../../src/solana/programIds.js';
import { AuditLog } from '../../../src/store/audit.js';
import { type FillInput, recordFill } from '../../../src/store/fills.js';
import { openStore } from '../../../src/store/migrate.js';
import { recordPriceSamples } from '../../../src/store/priceSamples.js';
import { TokenPins } from '../../../src/store/tokenPins.js';
import { START } from '../cli/auditHarness.js';
import { tempDir } from '../store/helpers.js';

export const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
type Leg = [string, string, number];
const USDC = (units: string): Leg => [USDC_MINT, units, 6];
const SOL = (units: string): Leg => [SOL_MINT, units, 9];
const JUPS = (units: string): Leg => [JUP, units, 6];

/** The example's fills: strategy, what was given, what was received, the fee. */
export const EXAMPLE_FILLS: readonly [string, Leg, Leg, Leg?][] = [
  ['sol-tp', USDC('300000000'), SOL('2000000000'), USDC('300000')],
  ['sol-tp', USDC('160000000'), SOL('1000000000')],
  ['sol-tp', SOL('2500000000'), USDC('425000000'), USDC('425000')],
  ['sol-tp', SOL('250000000'), JUPS('1000000000')],
  ['sol-tp', JUPS('400000000'), USDC('20000000')],
  ['nba-exit', ['prediction:m1:yes', '2000000', 6], USDC('1800000'), USDC('36000')],
  ['jup-exit', JUPS('300000000'), USDC('15000000')],
];

/** What the wallet held at its first reading: 1,000 USDC, 500 JUP, 1 SOL (sorted by mint). */
export const FIRST_READING = [
  { mint: USDC_MINT, decimals: 6, amount: '1000000000' },
  { mint: JUP, decimals: 6, amount: '500000000' },
  { mint: SOL_MINT, decimals: 9, amount: '1000000000' },
];

/** A closed database with the worked example's six fills, one a minute from START. */
export function exampleDatabase(): string {
  return build(false);
}

/** The worked example with the wallet's units held before jupbot: seven fills, bases, a kept price. */
export function basisExampleDatabase(): string {
  return build(true);
}

function build(basis: boolean): string {
  const clock = new ManualClock(START);
  const file = join(tempDir(), 'jupbot-paper.sqlite');
  const { db } = openStore(file, { clock, synchronous: 'NORMAL' });
  const log = new AuditLog(db, clock);
  new TokenPins(db).pin({ strategy: 'sol-tp', symbol: 'JUP', mint: JUP, decimals: 6 }, START);
  if (basis) recordBases(log, clock);
  EXAMPLE_FILLS.slice(0, basis ? 7 : 6).forEach(([strategy, given, got, fee], i) => {
    const at = START + (i + 1) * 60_000;
    // The six fills were recorded at START before the basis existed; the example with it records each fill when it happens.
    if (basis) clock.setWallTime(at);
    const fill: FillInput = {
      signature: `sig${i + 1}`,
      idx: 0,
      source: strategy === 'nba-exit' ? 'prediction' : 'swap',
      inMint: given[0],
      inAmount: given[1],
      inDecimals: given[2],
      outMint: got[0],
      outAmount: got[1],
      outDecimals: got[2],
      fee: fee ? { mint: fee[0], amount: fee[1], decimals: fee[2] } : null,
      at,
    };
    db.transaction(() => recordFill(db, log, fill, { intentId: null, strategy }, basis ? at : START))();
  });
  // SOL's price as the daemon kept it, after the last fill: the closing price.
  if (basis) recordPriceSamples(db, [{ mint: SOL_MINT, usd: '180' }], START + 8 * 60_000, 60_000);
  db.close();
  return file;
}

/** The first balances reading at START; the first prices seen (SOL $150, JUP $0.04); the operator's SOL basis, $120, 30 s later. */
function recordBases(log: AuditLog, clock: ManualClock): void {
  log.append({ kind: 'wallet.balances', data: { balances: FIRST_READING, readAt: START } });
  log.append({
    kind: 'basis.observed',
    mint: SOL_MINT,
    amount: '1000000000',
    decimals: 9,
    data: { mint: SOL_MINT, decimals: 9, units: '1000000000', priceUsd: '150', at: START },
  });
  log.append({
    kind: 'basis.observed',
    mint: JUP,
    amount: '500000000',
    decimals: 6,
    data: { mint: JUP, decimals: 6, units: '500000000', priceUsd: '0.04', at: START },
  });
  clock.setWallTime(START + 30_000);
  log.append({ kind: 'basis.set', mint: SOL_MINT, decimals: 9, data: { mint: SOL_MINT, decimals: 9, priceUsd: '120', at: START + 30_000 } });
}
