/**
 * Opens the rehearsal ledger the first time a rehearsal starts on a database: from the balances the
 * config declares (`rehearsal.balances`), else from the wallet's real balances read through the RPC
 * (native SOL, and every token account of both token programs). A restart continues the ledger it
 * finds: the opening is never read again, so a rehearsal's figures stay its own.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../ops/log.js';
import { SOL_MINT, TOKEN_PROGRAMS } from '../solana/programIds.js';
import type { SolanaRpc } from '../solana/rpc.js';
import type { AuditLog } from '../store/audit.js';
import type { Db } from '../store/db.js';
import { fixedToUnits, parseFixed } from '../money/decimal.js';
import { isMintAddress, isTrusted, type TokenSearch } from '../strategies/tokenResolution.js';
import { formatUnits } from '../money/formatUnits.js';
import { type OpeningBalance, type OpeningSource, readOpening, recordOpening } from './ledger.js';
import { RehearsalError } from './rehearsalError.js';

export interface OpenLedgerOptions {
  readonly db: Db;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly log: Logger;
  readonly rpc: SolanaRpc;
  readonly wallet: string;
  /** `rehearsal.balances`: whole tokens by mint or symbol; null: the wallet's real balances. */
  readonly declared: Readonly<Record<string, string>> | null;
  readonly search: TokenSearch;
}

export async function openLedger(options: OpenLedgerOptions): Promise<void> {
  const { db, audit, clock, log } = options;
  const kept = readOpening(db);
  if (kept !== null) {
    log.info(
      { opening: kept.source, openedAt: new Date(kept.openedAt).toISOString() },
      `REHEARSAL ledger continues: opened ${new Date(kept.openedAt).toISOString()} from the ${kept.source === 'wallet' ? "wallet's real balances" : "config's balances"}`,
    );
    return;
  }
  const source: OpeningSource = options.declared === null ? 'wallet' : 'config';
  const balances = options.declared === null ? await walletBalances(options) : await declaredBalances(options.declared, options.search);
  recordOpening(db, audit, source, balances, clock.now());
  log.info(
    { opening: source, balances: balances.map((b) => ({ mint: b.mint, amount: formatUnits(b.amount, b.decimals) })) },
    `REHEARSAL ledger opened from the ${source === 'wallet' ? `wallet's real balances (${options.wallet})` : "config's rehearsal.balances"}: ${balances.length} token(s)`,
  );
}

async function walletBalances(options: OpenLedgerOptions): Promise<OpeningBalance[]> {
  const { rpc, wallet } = options;
  const byMint = new Map<string, OpeningBalance>([[SOL_MINT, { mint: SOL_MINT, amount: await rpc.getBalance(wallet), decimals: 9 }]]);
  for (const program of TOKEN_PROGRAMS) {
    for (const account of await rpc.getTokenAccountsByOwner(wallet, { programId: program.toBase58() })) {
      // Wrapped SOL counts as SOL, as the live balances feed counts it.
      const had = byMint.get(account.mint);
      byMint.set(account.mint, { mint: account.mint, amount: (had?.amount ?? 0n) + account.amount, decimals: had?.decimals ?? account.decimals });
    }
  }
  return [...byMint.values()].filter((b) => b.amount > 0n || b.mint === SOL_MINT);
}

/** Each declared token resolved as a strategy's would be: a mint the search knows, or one verified symbol. */
async function declaredBalances(declared: Readonly<Record<string, string>>, search: TokenSearch): Promise<OpeningBalance[]> {
  const out: OpeningBalance[] = [];
  for (const [ref, text] of Object.entries(declared)) {
    const where = `rehearsal.balances.${ref}`;
    const whole = parseFixed(text);
    if (whole === undefined) throw new RehearsalError('REHEARSAL_BALANCE_INVALID', `${where}: "${text}" is not an amount of whole tokens`);
    const answer = await search(ref);
    const matches = isMintAddress(ref)
      ? answer.filter((t) => t.id === ref)
      : answer.filter((t) => isTrusted(t) && (t.symbol.toLowerCase() === ref.toLowerCase() || t.name.toLowerCase() === ref.toLowerCase()));
    const token = matches.length === 1 ? matches[0] : undefined;
    if (token === undefined) {
      const why = matches.length === 0 ? 'no verified token has that symbol or mint' : `${matches.length} verified tokens match; write the mint instead`;
      throw new RehearsalError('REHEARSAL_BALANCE_INVALID', `${where}: ${why}`);
    }
    out.push({ mint: token.id, amount: fixedToUnits(whole, token.decimals), decimals: token.decimals });
  }
  return out;
}
