/** docs/audit.md's worked example as a database file: six fills, one a minute from START (closed). */
import { join } from 'node:path';
import { ManualClock } from '../../../src/clock.js';
import { SOL_MINT, USDC_MINT } from '../../../src/solana/programIds.js';
import { AuditLog } from '../../../src/store/audit.js';
import { type FillInput, recordFill } from '../../../src/store/fills.js';
import { openStore } from '../../../src/store/migrate.js';
import { TokenPins } from '../../../src/store/tokenPins.js';
import { START } from '../cli/auditHarness.js';
import { tempDir } from '../store/helpers.js';

const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
type Leg = [string, string, number];
const USDC = (units: string): Leg => [USDC_MINT, units, 6];
const SOL = (units: string): Leg => [SOL_MINT, units, 9];
const JUPS = (units: string): Leg => [JUP, units, 6];

/** A closed database with the worked example's six fills, one a minute from START. */
export function exampleDatabase(): string {
  const clock = new ManualClock(START);
  const file = join(tempDir(), 'jupbot-paper.sqlite');
  const { db } = openStore(file, { clock, synchronous: 'NORMAL' });
  const log = new AuditLog(db, clock);
  new TokenPins(db).pin({ strategy: 'sol-tp', symbol: 'JUP', mint: JUP, decimals: 6 }, START);
  const fills: [string, Leg, Leg, Leg?][] = [
    ['sol-tp', USDC('300000000'), SOL('2000000000'), USDC('300000')],
    ['sol-tp', USDC('160000000'), SOL('1000000000')],
    ['sol-tp', SOL('2500000000'), USDC('425000000'), USDC('425000')],
    ['sol-tp', SOL('250000000'), JUPS('1000000000')],
    ['sol-tp', JUPS('400000000'), USDC('20000000')],
    ['nba-exit', ['prediction:m1:yes', '2000000', 6], USDC('1800000'), USDC('36000')],
  ];
  fills.forEach(([strategy, given, got, fee], i) => {
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
      at: START + (i + 1) * 60_000,
    };
    db.transaction(() => recordFill(db, log, fill, { intentId: null, strategy }, START))();
  });
  db.close();
  return file;
}
