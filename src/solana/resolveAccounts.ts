/**
 * Turns a VersionedTransaction into the facts the guard reasons about: every account key in order
 * (address lookup tables resolved), which are signers and writable, and each instruction with its
 * program and accounts as addresses. A key the guard cannot see is a key it cannot judge, so a lookup
 * table that cannot be resolved, or an index past its end, refuses the transaction.
 */
import type { VersionedTransaction } from '@solana/web3.js';
import { GuardRefusal } from './guardRefusal.js';
import { isActive, type LookupTableResolver, type LookupTableState } from './lookupTables.js';

export type { LookupTableResolver } from './lookupTables.js';

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
  /** The tables the message names, as resolved. */
  readonly lookupTables: readonly LookupTableState[];
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
  const tables: LookupTableState[] = [];
  if (lookups.length > 0) {
    if (!resolveLookupTable)
      throw new GuardRefusal('UNRESOLVED_LOOKUP_TABLE', 'the transaction uses lookup tables and no resolver was given', {
        tables: lookups.map((l) => l.accountKey.toBase58()),
      });
    const requests = lookups.map((l) => ({ address: l.accountKey.toBase58(), minLength: Math.max(-1, ...l.writableIndexes, ...l.readonlyIndexes) + 1 }));
    let answers;
    try {
      answers = await resolveLookupTable(requests);
    } catch (error) {
      throw new GuardRefusal('UNRESOLVED_LOOKUP_TABLE', `lookup tables ${requests.map((r) => r.address).join(', ')} could not be fetched`, {
        cause: error instanceof Error ? error.message : String(error),
      });
    }
    requests.forEach((request, t) => {
      const table = request.address;
      const answer = answers[t];
      if (answer === undefined || answer === 'missing') throw new GuardRefusal('LOOKUP_TABLE_MISSING', `lookup table ${table} does not exist`, { table });
      if (answer === 'invalid') throw new GuardRefusal('LOOKUP_TABLE_INVALID', `account ${table} is not an address lookup table`, { table });
      if (!isActive(answer))
        throw new GuardRefusal('LOOKUP_TABLE_DEACTIVATED', `lookup table ${table} is deactivated (slot ${answer.deactivationSlot})`, {
          table,
          deactivationSlot: answer.deactivationSlot.toString(),
        });
      if (answer.addresses.length < request.minLength) {
        throw new GuardRefusal(
          'LOOKUP_TABLE_INDEX_OUT_OF_RANGE',
          `lookup table ${table} holds ${answer.addresses.length} addresses; the transaction reads index ${request.minLength - 1}`,
          {
            table,
            length: answer.addresses.length,
            index: request.minLength - 1,
          },
        );
      }
      tables.push(answer);
    });
    const pick = (t: number, index: number): string => (tables[t] as LookupTableState).addresses[index] as string;
    lookups.forEach((l, t) => l.writableIndexes.forEach((i) => accounts.push({ address: pick(t, i), signer: false, writable: true })));
    lookups.forEach((l, t) => l.readonlyIndexes.forEach((i) => accounts.push({ address: pick(t, i), signer: false, writable: false })));
  }

  const instructions = message.compiledInstructions.map((ix, index): ResolvedInstruction => {
    // Program ids cannot come from a lookup table (the runtime refuses that too).
    const program = statics[ix.programIdIndex];
    if (program === undefined)
      throw new GuardRefusal('MALFORMED_TRANSACTION', `instruction ${index} names a program outside the static keys`, { instruction: index });
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
    lookupTables: tables,
  };
}
