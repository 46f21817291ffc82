/**
 * The world's address lookup tables: deterministic from the seed and a label, extended as needed,
 * served over the RPC in the on-chain layout (a 56-byte header, then the addresses) so clients
 * resolve them as they would on mainnet. Jupiter's transactions load most of their accounts
 * through such tables; the simulator's do too.
 */
import { createHash } from 'node:crypto';
import { AddressLookupTableAccount, type PublicKey } from '@solana/web3.js';
import { derivedAddress } from './programIds.js';

export const ADDRESS_LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';
const ACTIVE = 0xffff_ffff_ffff_ffffn;

interface Table {
  account: AddressLookupTableAccount;
  /** What the chain serves: the same addresses, or fewer once truncated. */
  served: number;
  deactivationSlot: bigint;
}

export class LookupTables {
  readonly #tables = new Map<string, Table>();
  readonly #byLabel = new Map<string, string>();

  constructor(
    private readonly seed: string,
    private readonly slot: () => number,
  ) {}

  /** The table for `label`, created or extended so that it holds every one of `addresses`. */
  ensure(label: string, addresses: readonly PublicKey[]): AddressLookupTableAccount {
    const known = this.#byLabel.get(label);
    const table = known === undefined ? undefined : this.#tables.get(known);
    if (table) {
      const missing = addresses.filter((a) => !table.account.state.addresses.some((b) => b.equals(a)));
      if (missing.length === 0) return table.account;
      const state = {
        ...table.account.state,
        addresses: [...table.account.state.addresses, ...missing],
        lastExtendedSlot: this.slot(),
        lastExtendedSlotStartIndex: table.account.state.addresses.length,
      };
      table.account = new AddressLookupTableAccount({ key: table.account.key, state });
      table.served = state.addresses.length;
      return table.account;
    }
    const key = derivedAddress(`${this.seed}:lookup-table:${createHash('sha256').update(label).digest('hex')}`);
    const unique = addresses.filter((a, i) => addresses.findIndex((b) => b.equals(a)) === i);
    const account = new AddressLookupTableAccount({
      key,
      state: { deactivationSlot: ACTIVE, lastExtendedSlot: this.slot(), lastExtendedSlotStartIndex: 0, addresses: unique },
    });
    this.#tables.set(key.toBase58(), { account, served: unique.length, deactivationSlot: ACTIVE });
    this.#byLabel.set(label, key.toBase58());
    return account;
  }

  get(address: string): AddressLookupTableAccount | undefined {
    return this.#tables.get(address)?.account;
  }

  /** The account data in the on-chain layout, or undefined when no such table exists. */
  accountData(address: string): Buffer | undefined {
    const table = this.#tables.get(address);
    if (!table) return undefined;
    const header = Buffer.alloc(56);
    header.writeUInt32LE(1, 0);
    header.writeBigUInt64LE(table.deactivationSlot, 4);
    header.writeBigUInt64LE(BigInt(table.account.state.lastExtendedSlot), 12);
    header.writeUInt8(table.account.state.lastExtendedSlotStartIndex, 20);
    header.writeUInt8(0, 21);
    return Buffer.concat([header, ...table.account.state.addresses.slice(0, table.served).map((a) => a.toBuffer())]);
  }

  deactivate(address: string): void {
    const table = this.#tables.get(address);
    if (table) table.deactivationSlot = BigInt(this.slot());
  }

  truncate(address: string, length: number): void {
    const table = this.#tables.get(address);
    if (table) table.served = Math.max(0, Math.min(length, table.account.state.addresses.length));
  }
}
