/**
 * The figure commands (`audit pnl`, `trades`, `orders`) check the database before they show
 * anything: the chain, and the fills, intents and orders against the chain's seals. Figures from a
 * database that fails are still shown (an auditor needs to see what is there), but never as if
 * they could be trusted: a first line says UNVERIFIED and names the first row that differs, the
 * same line goes to stderr, and the command exits 3 after printing, as `audit verify` does.
 */
import type { Command } from 'commander';
import { ExitCode } from '../exitCodes.js';
import { firstProblem, walkAuditChain } from '../store/chainVerifier.js';
import type { Db } from '../store/db.js';
import { type ResolveDb, withAuditDb } from './auditDatabase.js';
import { CliExit, type CliContext } from './context.js';

/** What the check found: `problem` names the first break or differing row when `ok` is false. */
export interface Verification {
  readonly ok: boolean;
  readonly problem: string | null;
}

/** Checks the chain and the sealed tables of `db`. */
export function verifyFigures(db: Db): Verification {
  const result = walkAuditChain(db, () => undefined);
  return { ok: result.ok, problem: result.ok ? null : (firstProblem(result) ?? 'the audit chain does not verify') };
}

/** The line a table starts with when its figures failed the check; empty when they passed. */
export function unverifiedBanner(verification: Verification): string {
  return verification.ok ? '' : `UNVERIFIED: ${verification.problem}\nThe figures below come from rows the audit chain does not vouch for.\n\n`;
}

/** {@link withAuditDb}, checking the database first; exits 3 after `use` when the check failed. */
export async function withVerifiedAuditDb<T>(
  ctx: CliContext,
  resolveDb: ResolveDb,
  command: Command,
  use: (db: Db, verification: Verification) => T,
): Promise<T> {
  let verification: Verification = { ok: true, problem: null };
  const result = await withAuditDb(ctx, resolveDb, command, (db) => {
    verification = verifyFigures(db);
    return use(db, verification);
  });
  if (!verification.ok) throw new CliExit(ExitCode.AuditChainBroken, `UNVERIFIED: ${verification.problem}`);
  return result;
}
