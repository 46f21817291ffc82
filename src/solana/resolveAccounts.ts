/**
 * Turns a VersionedTransaction into the facts the guard reasons about: every account key in order
 * (address lookup tables resolved), which are signers and writable, and each instruction with its
 * program and accounts as addresses. A key the guard cannot see is a key it cannot judge, so a lookup
 * table that cannot be resolved, or an index past its end, refuses the transaction.
 */
import type { PublicKey, VersionedTransaction } from '@solana/web3.js';
import { GuardRefusal } from './guardRefusal.js';

/** Fetches the addresses of a lookup table (the RPC adapter); undefined when it does not exist. */
export type LookupTableResolver = (address: string) => Promise<readonly PublicKey[] | undefined>;

export interface AccountMeta {
  readonly address: string;
  readonly signer: boolean;
  readonly writable: boolean;
}

export interface ResolvedInstruction {
  readonly index: number;
  readonly program: string;
  readonly accounts: readonly AccountMeta[];
  readonly data: Uint8Array;
}

export interface ResolvedTransaction {
  readonly feePayer: string;
  readonly signers: readonly string[];
  readonly accounts: readonly AccountMeta[];
  readonly instructions: readonly ResolvedInstruction[];
}

export async function resolveTransaction(tx: VersionedTransaction, resolveLookupTable: LookupTableResolver | undefined): Promise<ResolvedTransaction> {
  const message = tx.message;
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header;
  const statics = message.staticAccountKeys.map((k) => k.toBase58());
  if (numRequiredSignatures < 1 || numRequiredSignatures > statics.length || numReadonlySignedAccounts >= numRequiredSignatures) {
    throw new GuardRefusal('MALFORMED_TRANSACTION', 'the message header is inconsistent', { numRequiredSignatures, staticAccounts: statics.length });
  }
  const accounts: AccountMeta[] = statics.map((address, i) => {
    const signer = i < numRequiredSignatures;
    const writable = signer ? i < numRequiredSignatures - numReadonlySignedAccounts : i < statics.length - numReadonlyUnsignedAccounts;
    return { address, signer, writable };
  });

  // The runtime appends all tables' writable entries, then all tables' readonly entries.
  const lookups = message.addressTableLookups;
  if (lookups.length > 0) {
    const tables: (readonly PublicKey[])[] = [];
    for (const lookup of lookups) {
      const table = lookup.accountKey.toBase58();
      let addresses: readonly PublicKey[] | undefined;
      try {
        addresses = resolveLookupTable ? await resolveLookupTable(table) : undefined;
      } catch (error) {
        throw new GuardRefusal('UNRESOLVED_LOOKUP_TABLE', `lookup table ${table} could not be fetched`, { table, cause: error instanceof Error ? error.message : String(error) });
      }
      if (!addresses) throw new GuardRefusal('UNRESOLVED_LOOKUP_TABLE', `lookup table ${table} could not be resolved`, { table });
      tables.push(addresses);
    }
    const pick = (tableIndex: number, index: number): string => {
      const address = tables[tableIndex]?.[index];
      const table = lookups[tableIndex]?.accountKey.toBase58();
      if (!address) throw new GuardRefusal('UNRESOLVED_LOOKUP_TABLE', `lookup table ${table} has no entry ${index}`, { table, index });
      return address.toBase58();
    };
    lookups.forEach((l, t) => l.writableIndexes.forEach((i) => accounts.push({ address: pick(t, i), signer: false, writable: true })));
    lookups.forEach((l, t) => l.readonlyIndexes.forEach((i) => accounts.push({ address: pick(t, i), signer: false, writable: false })));
  }

  const instructions = message.compiledInstructions.map((ix, index): ResolvedInstruction => {
    // Program ids cannot come from a lookup table (the runtime refuses that too).
    const program = statics[ix.programIdIndex];
    if (program === undefined) throw new GuardRefusal('MALFORMED_TRANSACTION', `instruction ${index} names a program outside the static keys`, { instruction: index });
    const metas = ix.accountKeyIndexes.map((k) => {
      const meta = accounts[k];
      if (!meta) throw new GuardRefusal('MALFORMED_TRANSACTION', `instruction ${index} references account ${k}, past the end`, { instruction: index });
      return meta;
    });
    return { index, program, accounts: metas, data: ix.data };
  });

  return {
    feePayer: statics[0] as string,
    signers: statics.slice(0, numRequiredSignatures),
    accounts,
    instructions,
  };
}
