/**
 * What our Trigger vault holds of one mint, for the operator when an order the API no longer knows
 * is marked gone: its deposit may still sit in the vault (stranded: only Jupiter can move it out
 * without the order) or may have left it. The vault's address comes from `GET /trigger/v2/vault`,
 * its balance from the RPC the daemon already reads the wallet's balances through (`getBalance` for
 * SOL, held natively; `getTokenAccountsByOwner` for a token, summed over its accounts).
 *
 * Never throws: an unanswered question is an answer too (`unknown`, with the reason), and the
 * operator is told that nothing could be checked.
 */
import { errorMessage } from '../../errors.js';
import { TriggerApiError } from '../../jupiter/errors.js';
import { type AuthedJupiterClient, Priority } from '../../jupiter/transport.js';
import { getVault } from '../../jupiter/trigger.js';
import { SOL_MINT } from '../../solana/programIds.js';
import type { SolanaRpc } from '../../solana/rpc.js';

export type VaultFunds =
  /** The vault holds `amount` base units of `mint` (0: none). */
  | { readonly kind: 'held'; readonly vault: string; readonly mint: string; readonly amount: bigint }
  /** The Trigger API knows no vault for this wallet any more: where the funds are cannot be read through it. */
  | { readonly kind: 'no-vault'; readonly mint: string }
  /** The API or the RPC did not answer. */
  | { readonly kind: 'unknown'; readonly mint: string; readonly reason: string };

export type VaultBalanceRpc = Pick<SolanaRpc, 'getBalance' | 'getTokenAccountsByOwner'>;

export async function vaultFunds(authed: AuthedJupiterClient, rpc: VaultBalanceRpc, mint: string, signal?: AbortSignal): Promise<VaultFunds> {
  let vault: string;
  try {
    vault = (await getVault(authed, { priority: Priority.PollState, signal })).vaultPubkey;
  } catch (error) {
    if (error instanceof TriggerApiError && error.code === 'TRIGGER_VAULT_NOT_FOUND') return { kind: 'no-vault', mint };
    return { kind: 'unknown', mint, reason: `GET /trigger/v2/vault failed: ${errorMessage(error)}` };
  }
  try {
    const amount =
      mint === SOL_MINT ? await rpc.getBalance(vault) : (await rpc.getTokenAccountsByOwner(vault, { mint })).reduce((sum, account) => sum + account.amount, 0n);
    return { kind: 'held', vault, mint, amount };
  } catch (error) {
    return { kind: 'unknown', mint, reason: `the vault's balance could not be read: ${errorMessage(error)}` };
  }
}

/** The audit log's form (amounts as decimal strings). */
export function vaultFundsData(funds: VaultFunds): Record<string, unknown> {
  if (funds.kind === 'held') return { kind: 'held', vault: funds.vault, mint: funds.mint, amount: funds.amount.toString() };
  return { ...funds };
}
