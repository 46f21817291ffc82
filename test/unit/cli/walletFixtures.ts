/**
 * Paper databases of distinct wallets for the commands that read several at once: each records the
 * daemon's start with its wallet's address, then its own fills (strategy, given, received, fee,
 * minutes after START), so three wallets' trades interleave in time.
 */
import { join } from 'node:path';
import { ManualClock } from '../../../src/clock.js';
import { SOL_MINT, USDC_MINT } from '../../../src/solana/programIds.js';
import { AuditLog } from '../../../src/store/audit.js';
import { recordFill } from '../../../src/store/fills.js';
import { openStore } from '../../../src/store/migrate.js';
import { TokenPins } from '../../../src/store/tokenPins.js';
import { JUP } from '../audit/exampleDatabase.js';
import { tempDir } from '../store/helpers.js';
import { START } from './auditHarness.js';

type Leg = readonly [string, string, number];
const USDC = (units: string): Leg => [USDC_MINT, units, 6];
const SOL = (units: string): Leg => [SOL_MINT, units, 9];
const JUPS = (units: string): Leg => [JUP, units, 6];

/** A fill: strategy, what was given, what was received, the fee, and when (minutes after START, may be fractional). */
export type WalletFill = readonly [string, Leg, Leg, Leg | null, number];

/** Three wallets (base58-shaped addresses) and their fills: realized and unrealized P&L, fees, a swap, interleaved in time. */
export const WALLETS = {
  alpha: {
    address: 'A1phaWa11et1111111111111111111111111111111',
    fills: [
      ['sol-tp', USDC('300000000'), SOL('2000000000'), USDC('300000'), 1],
      ['sol-tp', USDC('160000000'), SOL('1000000000'), null, 3],
      ['sol-tp', SOL('2500000000'), USDC('425000000'), USDC('425000'), 5],
    ],
  },
  bravo: {
    address: 'Bravo2222222222222222222222222222222222222',
    fills: [
      ['dip-buy', USDC('140000000'), SOL('1000000000'), USDC('140000'), 2],
      ['dip-buy', SOL('333333333'), USDC('59999999'), USDC('59999'), 4],
      ['dip-buy', SOL('250000000'), JUPS('1000000000'), null, 6],
      ['dip-buy', JUPS('200000000'), USDC('11000003'), USDC('11000'), 6.5],
    ],
  },
  charlie: {
    address: 'Char1ie33333333333333333333333333333333333',
    fills: [
      ['jup-acc', USDC('50000000'), JUPS('1000000000'), USDC('50000'), 2.5],
      ['jup-acc', JUPS('400000000'), USDC('24000001'), null, 4],
      ['jup-acc', USDC('70000000'), SOL('400000000'), null, 7],
    ],
  },
} as const satisfies Record<string, { address: string; fills: readonly WalletFill[] }>;

/** A closed paper database of `wallet` (null: a start that records no wallet) holding `fills`. */
export function walletDatabase(wallet: string | null, fills: readonly WalletFill[]): string {
  const clock = new ManualClock(START);
  const file = join(tempDir(), 'jupbot-paper.sqlite');
  const { db } = openStore(file, { clock, synchronous: 'NORMAL' });
  const log = new AuditLog(db, clock);
  log.append({ kind: 'daemon.started', data: { version: '0.1.0', mode: 'paper', instanceId: 'test', ...(wallet === null ? {} : { wallet }) } });
  new TokenPins(db).pin({ strategy: fills[0]?.[0] ?? 'any', symbol: 'JUP', mint: JUP, decimals: 6 }, START);
  fills.forEach(([strategy, given, got, fee, minutes], i) => {
    const at = START + minutes * 60_000;
    clock.setWallTime(at);
    const fill = {
      signature: `${wallet ?? 'nowallet'}-sig${i + 1}`,
      idx: 0,
      source: 'swap' as const,
      inMint: given[0],
      inAmount: given[1],
      inDecimals: given[2],
      outMint: got[0],
      outAmount: got[1],
      outDecimals: got[2],
      fee: fee === null ? null : { mint: fee[0], amount: fee[1], decimals: fee[2] },
      at,
    };
    db.transaction(() => recordFill(db, log, fill, { intentId: null, strategy }, at))();
  });
  db.close();
  return file;
}

/** The three wallets' databases, in the order alpha, bravo, charlie. */
export function threeWallets(): string[] {
  return Object.values(WALLETS).map((w) => walletDatabase(w.address, w.fills));
}
