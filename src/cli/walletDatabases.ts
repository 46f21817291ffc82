/**
 * The databases of several wallets, read together (`audit pnl` and `audit trades` with `--db`
 * more than once): each labelled by the wallet it records and its file. Figures over several are
 * only added up when every one of them holds: the same wallet twice would count its trades twice,
 * so it is refused, and each database's chain and sealed tables are checked on their own first; a
 * database that fails is named and the command exits 3 without printing a figure (a total would
 * hide which wallet's rows the chain does not vouch for).
 */
import type { Command } from 'commander';
import { ExitCode } from '../exitCodes.js';
import type { Db } from '../store/db.js';
import { recordedWallets } from '../store/recordedWallets.js';
import { type ResolveDb, withAuditDbs } from './auditDatabase.js';
import { CliExit, type CliContext } from './context.js';
import { verifyFigures } from './verifiedFigures.js';

/** How a database that records no wallet address is labelled. */
export const NO_WALLET = '(wallet not recorded)';

export interface WalletDb {
  readonly db: Db;
  /** The file, as opened. */
  readonly file: string;
  /** The address the daemon recorded, or {@link NO_WALLET}; several (a database copied together) joined by `+`. */
  readonly wallet: string;
}

/** `<wallet> (<file>)`: how a line names one of the databases. */
export function walletLabel(w: Pick<WalletDb, 'wallet' | 'file'>): string {
  return `${w.wallet} (${w.file})`;
}

/** Refuses a file given twice, or two databases recording the same wallet. */
function refuseDoubles(wallets: readonly (WalletDb & { readonly addresses: readonly string[] })[]): void {
  const files = new Map<string, WalletDb>();
  const addresses = new Map<string, WalletDb>();
  for (const w of wallets) {
    const sameFile = files.get(w.file);
    if (sameFile !== undefined) throw new CliExit(ExitCode.Usage, `${w.file} is given twice with --db: its figures would count twice`);
    files.set(w.file, w);
    for (const address of w.addresses) {
      const same = addresses.get(address);
      if (same !== undefined)
        throw new CliExit(
          ExitCode.Usage,
          `${same.file} and ${w.file} are both databases of wallet ${address}: its figures would count twice; give one of them`,
        );
      addresses.set(address, w);
    }
  }
}

/** Opens every `--db`, labels each by its wallet, refuses doubles and fails (exit 3) naming each database that does not verify. */
export function withVerifiedWalletDbs<T>(ctx: CliContext, resolveDb: ResolveDb, command: Command, use: (wallets: readonly WalletDb[]) => T): Promise<T> {
  return withAuditDbs(ctx, resolveDb, command, (dbs) => {
    const wallets = dbs.map((db) => {
      const addresses = recordedWallets(db);
      return { db, file: db.name, addresses, wallet: addresses.length === 0 ? NO_WALLET : addresses.join('+') };
    });
    refuseDoubles(wallets);
    const broken = wallets.flatMap((w) => {
      const verification = verifyFigures(w.db);
      return verification.ok ? [] : [`UNVERIFIED: ${walletLabel(w)}: ${verification.problem}`];
    });
    if (broken.length > 0)
      throw new CliExit(
        ExitCode.AuditChainBroken,
        `${broken.join('\n')}\nnothing added up: the audit chain does not vouch for the rows of the database(s) named`,
      );
    return use(wallets.map(({ db, file, wallet }) => ({ db, file, wallet })));
  });
}
