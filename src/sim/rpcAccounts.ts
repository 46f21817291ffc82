/**
 * Accounts as the simulated chain would hold them, in the encodings `getAccountInfo`,
 * `getMultipleAccounts` and `simulateTransaction` return: lookup tables in their on-chain layout,
 * Aggregator v6's program, program-data and Anchor IDL accounts (aggregatorIdl.ts),
 * wallets as System accounts whose lamports are the ledger's SOL, and associated token accounts in
 * the SPL Token layout (165 bytes) with the ledger's balance. Native SOL is lamports, never wrapped.
 */
import { PublicKey } from '@solana/web3.js';
import { AGGREGATOR_IDL_ADDRESS, AGGREGATOR_PROGRAM_DATA, aggregatorIdlAccount, aggregatorProgramAccount, aggregatorProgramData } from './aggregatorIdl.js';
import type { Move } from './chain.js';
import { ADDRESS_LOOKUP_TABLE_PROGRAM } from './lookupTables.js';
import { ProgramId, SOL_MINT, tokenAccountOwner } from './programIds.js';
import type { SimWorld } from './world.js';

export interface WireAccount {
  readonly data: [string, 'base64'];
  readonly executable: boolean;
  readonly lamports: number;
  readonly owner: string;
  readonly rentEpoch: number;
  readonly space: number;
}

const TOKEN_ACCOUNT_RENT = 2_039_280;
// u64::MAX, as nodes report it for rent-exempt accounts (a JSON number, rounded as they round it).
const RENT_EPOCH = Number.MAX_SAFE_INTEGER;
const PROGRAMS = new Set(Object.values(ProgramId).map((k) => k.toBase58()));
const LOADER = 'BPFLoaderUpgradeab1e11111111111111111111111';
const AGGREGATOR = ProgramId.jupiterAggregatorV6.toBase58();
const PROGRAM_DATA = AGGREGATOR_PROGRAM_DATA.toBase58();
const IDL = AGGREGATOR_IDL_ADDRESS.toBase58();

function tokenData(mint: string, owner: string, amount: bigint): Buffer {
  const d = Buffer.alloc(165);
  new PublicKey(mint).toBuffer().copy(d, 0);
  new PublicKey(owner).toBuffer().copy(d, 32);
  d.writeBigUInt64LE(amount, 64);
  d.writeUInt8(1, 108); // initialized
  return d;
}

const wire = (data: Buffer, lamports: number, owner: string, executable = false): WireAccount => ({
  data: [data.toString('base64'), 'base64'],
  executable,
  lamports,
  owner,
  rentEpoch: RENT_EPOCH,
  space: data.length,
});

/** Balances as a function, so a simulation can answer with its own (post-move) view. */
export type Balances = (wallet: string, mint: string) => bigint;

export function accountAt(world: SimWorld, address: string, balance: Balances = (w, m) => world.ledger.balance(w, m)): WireAccount | null {
  const table = world.lookupTables.accountData(address);
  if (table) return wire(table, 1_000_000, ADDRESS_LOOKUP_TABLE_PROGRAM);
  if (address === AGGREGATOR) return wire(aggregatorProgramAccount(), 1_141_440, LOADER, true);
  if (address === PROGRAM_DATA) return wire(aggregatorProgramData(), 5_000_000_000, LOADER);
  if (address === IDL) {
    const idl = aggregatorIdlAccount(world.aggregatorIdl);
    return idl === null ? null : wire(idl, 50_000_000, AGGREGATOR);
  }
  if (PROGRAMS.has(address)) return wire(Buffer.alloc(0), 1, LOADER, true);
  const token = tokenAccountOwner(address);
  if (token) {
    if (token.mint === SOL_MINT) return null;
    const amount = balance(token.owner, token.mint);
    return amount > 0n ? wire(tokenData(token.mint, token.owner, amount), TOKEN_ACCOUNT_RENT, token.program) : null;
  }
  const lamports = balance(address, SOL_MINT);
  return lamports > 0n ? wire(Buffer.alloc(0), Number(lamports), ProgramId.system.toBase58()) : null;
}

/** Balances after `moves`, on top of the ledger's. */
export function afterMoves(world: SimWorld, moves: readonly Move[]): Balances {
  const delta = new Map<string, bigint>();
  const add = (wallet: string, mint: string, amount: bigint): void => {
    delta.set(`${wallet}\u0000${mint}`, (delta.get(`${wallet}\u0000${mint}`) ?? 0n) + amount);
  };
  for (const m of moves) {
    add(m.from, m.mint, -m.amount);
    add(m.to, m.mint, m.amount);
  }
  return (wallet, mint) => world.ledger.balance(wallet, mint) + (delta.get(`${wallet}\u0000${mint}`) ?? 0n);
}
