/**
 * Address lookup tables as the guard needs them: fetched through the RPC as raw accounts, parsed
 * from the on-chain layout (not from a node's parsed view), and cached. A table is append-only
 * while active, so a cached copy stays right for every index it holds; it is fetched again when a
 * transaction asks for an index past its cached end (it may have been extended since) or when the
 * copy is older than `maxAgeMs` (it may have been deactivated since). Parsed address lists are kept
 * per (address, last-extended slot), so a refetch of an unchanged table parses nothing.
 */
import { AddressLookupTableAccount } from '@solana/web3.js';
import type { Clock } from '../clock.js';
import type { SolanaRpc } from './rpc.js';

/** The lookup-table program: the only owner whose accounts are tables. */
export const ADDRESS_LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';
const ACTIVE = 0xffff_ffff_ffff_ffffn;

export interface LookupTableState {
  readonly address: string;
  readonly addresses: readonly string[];
  /** u64::MAX while active. */
  readonly deactivationSlot: bigint;
  readonly lastExtendedSlot: number;
}

export type LookupTableAnswer = LookupTableState | 'missing' | 'invalid';

/** Resolves tables for one transaction: each request names a table and the shortest length it must have. */
export type LookupTableResolver = (requests: readonly { address: string; minLength: number }[]) => Promise<LookupTableAnswer[]>;

export function isActive(state: LookupTableState): boolean {
  return state.deactivationSlot === ACTIVE;
}

/** Parses a lookup-table account's data, or null when it is not one. */
export function parseLookupTable(address: string, owner: string, data: Uint8Array): LookupTableState | null {
  if (owner !== ADDRESS_LOOKUP_TABLE_PROGRAM) return null;
  try {
    const state = AddressLookupTableAccount.deserialize(data);
    return {
      address,
      addresses: state.addresses.map((k) => k.toBase58()),
      deactivationSlot: state.deactivationSlot,
      lastExtendedSlot: state.lastExtendedSlot,
    };
  } catch {
    return null;
  }
}

export interface LookupTableResolverOptions {
  readonly rpc: Pick<SolanaRpc, 'getMultipleAccounts'>;
  readonly clock: Clock;
  /** @default 60_000 */
  readonly maxAgeMs?: number | undefined;
  /** @default 1_000 tables */
  readonly maxEntries?: number | undefined;
}

export function createLookupTableResolver(options: LookupTableResolverOptions): LookupTableResolver {
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 1_000;
  const cache = new Map<string, { state: LookupTableState; fetchedAt: number }>();

  return async (requests) => {
    const now = options.clock.now();
    const stale = [
      ...new Set(
        requests
          .filter((r) => {
            const hit = cache.get(r.address);
            return !hit || now - hit.fetchedAt > maxAgeMs || hit.state.addresses.length < r.minLength;
          })
          .map((r) => r.address),
      ),
    ];
    const fetched = new Map<string, LookupTableAnswer>();
    if (stale.length > 0) {
      const { accounts } = await options.rpc.getMultipleAccounts(stale);
      stale.forEach((address, i) => {
        const account = accounts[i] ?? null;
        if (account === null) {
          cache.delete(address);
          fetched.set(address, 'missing');
          return;
        }
        const previous = cache.get(address)?.state;
        const parsed = parseLookupTable(address, account.owner, account.data);
        if (parsed === null) {
          cache.delete(address);
          fetched.set(address, 'invalid');
          return;
        }
        // Same last-extended slot: the address list cannot have changed, keep the parsed copy.
        const state =
          previous && previous.lastExtendedSlot === parsed.lastExtendedSlot && previous.addresses.length === parsed.addresses.length
            ? { ...previous, deactivationSlot: parsed.deactivationSlot }
            : parsed;
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
        cache.set(address, { state, fetchedAt: now });
        fetched.set(address, state);
      });
    }
    return requests.map((r) => fetched.get(r.address) ?? (cache.get(r.address)?.state as LookupTableState));
  };
}

/** A resolver over fixed table accounts (address → base64 account data), for offline use. */
export function staticLookupTables(tables: ReadonlyMap<string, Uint8Array>): LookupTableResolver {
  return (requests) =>
    Promise.resolve(
      requests.map((r): LookupTableAnswer => {
        const data = tables.get(r.address);
        if (data === undefined) return 'missing';
        return parseLookupTable(r.address, ADDRESS_LOOKUP_TABLE_PROGRAM, data) ?? 'invalid';
      }),
    );
}
