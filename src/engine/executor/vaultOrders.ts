/**
 * Trigger V2 pieces shared by the vault handlers (price and DCA): our vault (created on first use),
 * the crafted, journaled, guarded and signed deposit, the order a deposit of ours created — found in
 * history by the deposit's signature, the one link between the bytes we signed and an order that
 * survives a lost answer or a restart — and how a failed create or confirm call is read.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { ApiError, TransportError, TriggerApiError } from '../../jupiter/errors.js';
import { type AuthedJupiterClient, Priority } from '../../jupiter/transport.js';
import {
  craftDeposit,
  type DcaHistoryItem,
  type DepositCraftParams,
  existingVault,
  getAllDcaHistory,
  getAllOrderHistory,
  getVault,
  type OrderHistoryItem,
  registerVault,
  type Vault,
} from '../../jupiter/trigger.js';
import type { GuardedSigner } from '../../solana/guardedSigner.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { IntentRow, Journal, SignedRecord } from '../../store/journal.js';
import { dcaDepositSignatureOf, depositSignatureOf } from '../../store/triggerOrders.js';
import { IntentRefusedError } from './errors.js';
import type { SubmitResult } from './handler.js';

/** Solana: a blockhash is accepted for 150 blocks after it was issued. */
const BLOCKHASH_VALID_BLOCKS = 150;

/** A wallet's vault never changes once it exists: one look-up per client (per wallet login). */
const knownVaults = new WeakMap<AuthedJupiterClient, Vault>();

/** GET /vault; on 404 register it; a 409 from register (another caller won) carries the existing vault. */
export async function ensureVault(client: AuthedJupiterClient, signal?: AbortSignal): Promise<Vault> {
  const known = knownVaults.get(client);
  if (known) return known;
  const vault = await findOrRegisterVault(client, signal);
  knownVaults.set(client, vault);
  return vault;
}

async function findOrRegisterVault(client: AuthedJupiterClient, signal?: AbortSignal): Promise<Vault> {
  try {
    return await getVault(client, { signal });
  } catch (error) {
    if (!(error instanceof TriggerApiError) || error.code !== 'TRIGGER_VAULT_NOT_FOUND') throw error;
  }
  try {
    return await registerVault(client, { signal });
  } catch (error) {
    const existing = existingVault(error);
    if (existing) return existing;
    throw error;
  }
}

/**
 * The history items of the order our deposit `signature` funded: the item carrying the deposit event
 * first, then an OCO's other leg (same funds: same mints, amount, expiry and creation time; it carries
 * no deposit event). Empty when history does not (yet) show the deposit.
 */
export async function findOrderByDeposit(client: AuthedJupiterClient, signature: string, signal?: AbortSignal): Promise<OrderHistoryItem[]> {
  const items = await getAllOrderHistory(client, {}, { signal });
  const main = items.find((item) => depositSignatureOf(item) === signature);
  if (!main) return [];
  return [main, ...siblingsOf(main, items)];
}

/** The items sharing `main`'s deposit (an OCO's stop-loss leg). */
export function siblingsOf(main: OrderHistoryItem, items: readonly OrderHistoryItem[]): OrderHistoryItem[] {
  if (main.orderType !== 'oco') return [];
  return items.filter(
    (item) =>
      item.id !== main.id &&
      item.orderType === 'oco' &&
      depositSignatureOf(item) === null &&
      item.inputMint === main.inputMint &&
      item.outputMint === main.outputMint &&
      item.initialInputAmount === main.initialInputAmount &&
      item.expiresAt === main.expiresAt &&
      item.createdAt === main.createdAt,
  );
}

/** The DCA order our deposit `signature` funded (one item, DCA has no legs), or undefined. */
export async function findDcaOrderByDeposit(client: AuthedJupiterClient, signature: string, signal?: AbortSignal): Promise<DcaHistoryItem | undefined> {
  const items = await getAllDcaHistory(client, {}, { signal });
  return items.find((item) => dcaDepositSignatureOf(item) === signature);
}

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
export async function signDeposit(deps: DepositDeps, row: IntentRow, craftParams: Omit<DepositCraftParams, 'userAddress' | 'amount'> & { amount: bigint }, signal: AbortSignal): Promise<SignedRecord> {
  const { authed, rpc, signer, journal } = deps;
  const vault = await ensureVault(authed, signal);
  const craft = await craftDeposit(authed, { ...craftParams, userAddress: signer.address }, { signal, priority: Priority.Place });
  // Journaled before anything is signed: the requestId and the exact bytes Jupiter offered.
  journal.recordTriggerIds(row.id, { depositRequestId: craft.requestId }, 'deposit.crafted', { transaction: craft.transaction, vault: craft.receiverAddress, mint: craft.mint, amount: craft.amount });
  if (craft.mint !== craftParams.inputMint || BigInt(craft.amount) !== craftParams.amount || craft.receiverAddress !== vault.vaultPubkey) {
    throw new IntentRefusedError('DEPOSIT_MISMATCH', `the crafted deposit is ${craft.amount} ${craft.mint} to ${craft.receiverAddress}, not ${craftParams.amount} ${craftParams.inputMint} to our vault`, {
      craft: { mint: craft.mint, amount: craft.amount, vault: craft.receiverAddress },
    });
  }
  // The guard decodes the bytes themselves: the craft's own fields above are only a first check.
  const signed = await signer.signBase64(craft.transaction, { kind: 'vault-deposit', mint: craftParams.inputMint, amount: craftParams.amount, vault: vault.vaultPubkey }, { strategy: row.strategy, intentId: row.id });
  return signedRecord(rpc, signed, craft.requestId, { vault: vault.vaultPubkey, depositRequestId: craft.requestId, guard: { programs: signed.summary.programs, feePayer: signed.summary.feePayer } });
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

/** A 4xx: this call did not create it (the bytes are Jupiter's to land, and they expire). Timeouts, 5xx, resets: unknown. */
export function classify(error: unknown, mode: string): SubmitResult {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError || error instanceof TransportError) {
    return { kind: error.outcomeUnknown ? 'unknown' : 'rejected', code: error.code, message, data: { mode } };
  }
  return { kind: 'unknown', code: 'SUBMIT_ERROR', message, data: { mode } };
}

/**
 * The start of a vault create's submit: the deposit's `depositRequestId` must be journaled, and a
 * re-send (the last call's outcome unknown) asks history first — only if it shows no order are the
 * SAME bytes posted again (one signature lands once). Returns the settled result, or the request id
 * to post with.
 */
export async function beforeCreate(row: IntentRow, mode: 'first' | 'resend', lookUp: () => Promise<Record<string, unknown> | undefined>): Promise<SubmitResult | { readonly depositRequestId: string }> {
  const depositRequestId = row.depositRequestId ?? row.requestId;
  if (depositRequestId === null) return { kind: 'rejected', code: 'NO_DEPOSIT_REQUEST', message: 'no depositRequestId recorded', data: {} };
  if (mode === 'resend') {
    try {
      const found = await lookUp();
      if (found) return { kind: 'confirmed', data: { ...found, via: 'history' }, fills: [] };
    } catch (error) {
      return classify(error, mode);
    }
  }
  return { depositRequestId };
}
