/**
 * What a transaction does, for people: every signer and the state of its signature, the programs,
 * the lookup tables and what they resolved to, each instruction decoded where jupbot can read it
 * (System, SPL Token, Associated Token, Compute Budget, Memo, Jupiter v6 swaps, prediction orders and
 * claims), and what the instructions move out of and into the wallet. The same decoders the guard
 * uses; nothing here decides anything.
 */
import type { VersionedTransaction } from '@solana/web3.js';
import nacl from 'tweetnacl';
import { decodeJupiterSwap, isJupiterSwapData, SwapDecodeError } from './decode/jupiterSwapInstruction.js';
import { SwapVariantTable } from './decode/swapVariantTable.js';
import { decodePredictionInstruction, PredictionDecodeError } from './decode/predictionOrder.js';
import { GuardRefusal } from './guardRefusal.js';
import { decodeEffect } from './instructionEffects.js';
import { JUPITER_AGGREGATOR_V6, JUPITER_PREDICTION_PROGRAM } from './programIds.js';
import { type LookupTableResolver, resolveTransaction } from './resolveAccounts.js';

export type SignatureStatus = 'ours (to be signed)' | 'present, valid' | 'present, INVALID' | 'empty';

export interface ExplainedInstruction {
  readonly index: number;
  readonly program: string;
  /** What the decoders make of it, or why they could not. */
  readonly decoded: Record<string, unknown>;
}

export interface Explanation {
  readonly feePayer: string;
  readonly signers: readonly { address: string; signature: SignatureStatus }[];
  readonly programs: readonly string[];
  readonly lookupTables: readonly { address: string; addresses: readonly string[] }[];
  readonly instructions: readonly ExplainedInstruction[];
  /** From the decoded instructions: what leaves the wallet (or its accounts) and where to. */
  readonly outflows: readonly Record<string, string>[];
  /** Set when the accounts could not all be resolved (a missing table): nothing below is complete. */
  readonly unresolved: string | null;
}

const json = (value: unknown): unknown =>
  typeof value === 'bigint'
    ? value.toString()
    : Array.isArray(value)
      ? value.map(json)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, json(v)]))
        : value;

export async function explainTransaction(
  tx: VersionedTransaction,
  wallet: string,
  resolveLookupTable: LookupTableResolver | undefined,
  venues: SwapVariantTable = SwapVariantTable.bundled(),
): Promise<Explanation> {
  const message = tx.message;
  const bytes = message.serialize();
  const statics = message.staticAccountKeys;
  const signers = statics.slice(0, message.header.numRequiredSignatures).map((key, i): { address: string; signature: SignatureStatus } => {
    const address = key.toBase58();
    const sig = tx.signatures[i];
    if (!sig || sig.every((b) => b === 0)) return { address, signature: address === wallet ? 'ours (to be signed)' : 'empty' };
    return { address, signature: nacl.sign.detached.verify(bytes, sig, key.toBytes()) ? 'present, valid' : 'present, INVALID' };
  });
  let resolved;
  try {
    resolved = await resolveTransaction(tx, resolveLookupTable);
  } catch (error) {
    if (!(error instanceof GuardRefusal)) throw error;
    return {
      feePayer: statics[0]?.toBase58() ?? '',
      signers,
      programs: [...new Set(message.compiledInstructions.map((ix) => statics[ix.programIdIndex]?.toBase58() ?? '?'))],
      lookupTables: message.addressTableLookups.map((l) => ({ address: l.accountKey.toBase58(), addresses: [] })),
      instructions: [],
      outflows: [],
      unresolved: `${error.reason}: ${error.message}`,
    };
  }
  const outflows: Record<string, string>[] = [];
  const instructions = resolved.instructions.map((ix): ExplainedInstruction => {
    const accounts = ix.accounts.map((a) => a.address);
    if (ix.program === JUPITER_AGGREGATOR_V6.toBase58() && isJupiterSwapData(ix.data)) {
      try {
        const swap = decodeJupiterSwap(ix.program, accounts, ix.data, venues);
        if (swap.accounts['userTransferAuthority'] === wallet) {
          outflows.push({
            what: `${swap.inAmount ?? 'a token-ledger amount'} from ${swap.accounts['userSourceTokenAccount'] ?? swap.accounts['sourceTokenAccount'] ?? '?'}`,
            via: `Jupiter ${swap.name}`,
          });
        }
        return { index: ix.index, program: ix.program, decoded: json({ type: `jupiter.${swap.name}`, ...swap }) as Record<string, unknown> };
      } catch (error) {
        if (error instanceof SwapDecodeError)
          return {
            index: ix.index,
            program: ix.program,
            decoded: { type: 'jupiter', error: `${error.failure}: ${error.message}`, venueTable: venues.describe(), ...(json(error.details) as object) },
          };
        throw error;
      }
    }
    if (ix.program === JUPITER_PREDICTION_PROGRAM) {
      try {
        return {
          index: ix.index,
          program: ix.program,
          decoded: json({ ...decodePredictionInstruction(accounts, ix.data), program: 'prediction' }) as Record<string, unknown>,
        };
      } catch (error) {
        if (error instanceof PredictionDecodeError) return { index: ix.index, program: ix.program, decoded: { type: 'prediction', error: error.message } };
        throw error;
      }
    }
    try {
      const effect = decodeEffect(ix, wallet);
      if (effect.type === 'sol-transfer' && effect.from === wallet && effect.to !== wallet)
        outflows.push({ what: `${effect.lamports} lamports`, to: effect.to });
      if (effect.type === 'token-transfer' && effect.authority === wallet)
        outflows.push({ what: `${effect.amount} of ${effect.mint ?? 'a token'} from ${effect.source}`, to: effect.dest });
      return { index: ix.index, program: ix.program, decoded: json(effect) as Record<string, unknown> };
    } catch (error) {
      if (error instanceof GuardRefusal)
        return { index: ix.index, program: ix.program, decoded: { type: 'refused', reason: error.reason, message: error.message } };
      throw error;
    }
  });
  return {
    feePayer: resolved.feePayer,
    signers,
    programs: [...new Set(resolved.instructions.map((ix) => ix.program))],
    lookupTables: resolved.lookupTables.map((t) => ({ address: t.address, addresses: t.addresses })),
    instructions,
    outflows,
    unresolved: null,
  };
}
