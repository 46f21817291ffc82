/**
 * The deposit that funds a vault order (price and DCA alike): crafted by Trigger, journaled before it
 * is signed, guarded as a `vault-deposit` of exactly the intent's amount, signed; and the start of the
 * create call that follows it, which never posts the same deposit twice.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { ParamsError } from '../../../jupiter/errors.js';
import { HistoryIncompleteError } from '../../../jupiter/recentHistory.js';
import { type AuthedJupiterClient, Priority } from '../../../jupiter/transport.js';
import { craftDeposit, type DepositCraftParams } from '../../../jupiter/trigger.js';
import type { GuardedSigner } from '../../../solana/guardedSigner.js';
import { BLOCKHASH_VALID_BLOCKS, type SolanaRpc } from '../../../solana/rpc.js';
import type { IntentRow, Journal, SignedRecord } from '../../../store/journal.js';
import { IntentRefusedError } from '../errors.js';
import type { SignedRow, SubmitResult } from '../handler.js';
import { submitOutcome } from '../submitOutcome.js';
import { ensureVault } from './vaultAccount.js';

export interface DepositDeps {
  readonly authed: AuthedJupiterClient;
  readonly rpc: SolanaRpc;
  readonly signer: GuardedSigner;
  readonly journal: Journal;
}

/**
 * planned → signed for a vault order: ensure the vault, craft the deposit, journal its `requestId`
 * and unsigned bytes (`deposit.crafted`) BEFORE signing, refuse a craft that is not exactly `amount`
 * of `inputMint` into our vault (`DEPOSIT_MISMATCH`), let the guard decode the bytes as a
 * `vault-deposit` of exactly that, sign. The executor journals the result before any create call.
 */
export async function signDeposit(
  deps: DepositDeps,
  row: IntentRow,
  craftParams: Omit<DepositCraftParams, 'userAddress' | 'amount'> & { amount: bigint },
  signal: AbortSignal,
): Promise<SignedRecord> {
  const { authed, rpc, signer, journal } = deps;
  const vault = await ensureVault(authed, signal);
  const craft = await craftDeposit(authed, { ...craftParams, userAddress: signer.address }, { signal, priority: Priority.Place });
  // Journaled before anything is signed: the requestId and the exact bytes Jupiter offered.
  journal.recordTriggerIds(row.id, { depositRequestId: craft.requestId }, 'deposit.crafted', {
    transaction: craft.transaction,
    vault: craft.receiverAddress,
    mint: craft.mint,
    amount: craft.amount,
  });
  if (craft.mint !== craftParams.inputMint || BigInt(craft.amount) !== craftParams.amount || craft.receiverAddress !== vault.vaultPubkey) {
    throw new IntentRefusedError(
      'DEPOSIT_MISMATCH',
      `the crafted deposit is ${craft.amount} ${craft.mint} to ${craft.receiverAddress}, not ${craftParams.amount} ${craftParams.inputMint} to our vault`,
      {
        craft: { mint: craft.mint, amount: craft.amount, vault: craft.receiverAddress },
      },
    );
  }
  // The guard decodes the bytes themselves: the craft's own fields above are only a first check.
  const signed = await signer.signBase64(
    craft.transaction,
    { kind: 'vault-deposit', mint: craftParams.inputMint, amount: craftParams.amount, vault: vault.vaultPubkey },
    { strategy: row.strategy, intentId: row.id },
  );
  return signedRecord(rpc, signed, craft.requestId, {
    vault: vault.vaultPubkey,
    depositRequestId: craft.requestId,
    guard: { programs: signed.summary.programs, feePayer: signed.summary.feePayer },
  });
}

/**
 * The journal record of a deposit or withdrawal the guard let through. Trigger's craft and cancel
 * answers give no lastValidBlockHeight: now + 150 blocks is an upper bound (safe to wait longer).
 */
export async function signedRecord(rpc: SolanaRpc, signed: { signed: string; signature: string }, requestId: string, data: object): Promise<SignedRecord> {
  const bytes = Buffer.from(signed.signed, 'base64');
  return {
    bytes,
    signature: signed.signature,
    blockhash: VersionedTransaction.deserialize(bytes).message.recentBlockhash,
    lastValidBlockHeight: (await rpc.getBlockHeight()) + BLOCKHASH_VALID_BLOCKS,
    requestId,
    data,
  };
}

/** How one family creates its order once the deposit is signed (price orders and DCA differ only here). */
export interface CreateSteps<A extends { readonly id: string }> {
  /** What the order is called in messages ("order", "DCA order"). */
  readonly label: string;
  /** The order our deposit funded, from history, or undefined while history does not show it. */
  lookUp(): Promise<Record<string, unknown> | undefined>;
  /** The create call with the signed deposit (no stop signal: a create that started finishes, so its answer is not lost). */
  create(depositRequestId: string, signedTransaction: string): Promise<A>;
  /** What the `order.id` note keeps of the answer. */
  summary(answer: A): Record<string, unknown>;
  /** The client refused the create's parameters before sending: what that means for this family. */
  refused(error: ParamsError): SubmitResult;
}

/**
 * submit for a vault create: the deposit's `depositRequestId` must be journaled; a re-send (the last
 * call's outcome unknown) asks history first, and only if it shows no order are the SAME bytes posted
 * again (one signature lands once). The created order's id is journaled at once; it is confirmed
 * when history shows it, else the outcome stays unknown and the next pass looks again.
 */
export async function createFromDeposit<A extends { readonly id: string }>(
  journal: Journal,
  row: SignedRow,
  mode: 'first' | 'resend',
  steps: CreateSteps<A>,
): Promise<SubmitResult> {
  const depositRequestId = row.depositRequestId ?? row.requestId;
  if (depositRequestId === null) return { kind: 'rejected', code: 'NO_DEPOSIT_REQUEST', message: 'no depositRequestId recorded', data: {} };
  try {
    const found = mode === 'resend' ? await steps.lookUp() : undefined;
    if (found) return { kind: 'confirmed', data: { ...found, via: 'history' }, fills: [] };
  } catch (error) {
    // History that could not be read far enough back shows nothing either way: never post on it.
    if (error instanceof HistoryIncompleteError) return { kind: 'unknown', code: error.code, message: error.message, data: { mode, ...error.details } };
    return submitOutcome(error, { mode });
  }
  let answer: A;
  try {
    answer = await steps.create(depositRequestId, Buffer.from(row.signedTx).toString('base64'));
  } catch (error) {
    // Refused locally, before any request: the deposit never left this process.
    if (error instanceof ParamsError) return steps.refused(error);
    return submitOutcome(error, { mode });
  }
  journal.recordTriggerIds(row.id, { orderId: answer.id }, 'order.id', { source: 'create', ...steps.summary(answer) });
  try {
    const found = await steps.lookUp();
    if (found) return { kind: 'confirmed', data: { ...found, via: 'create' }, fills: [] };
  } catch {
    // Mirrored on the next pass: the deposit's signature then decides (landed → history again).
  }
  return {
    kind: 'unknown',
    code: 'ORDER_NOT_IN_HISTORY',
    message: `${steps.label} ${answer.id} created; history does not show it yet`,
    data: { orderId: answer.id },
  };
}
