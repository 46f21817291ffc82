/**
 * Aggregator v6 as the chain shows it: the program account (BPF upgradeable loader, naming its
 * program-data account), the program-data account (holding the slot of the last deploy) and the
 * Anchor IDL account an Anchor program may publish at `createWithSeed(findProgramAddress([],
 * program), "anchor:idl", program)`: 8-byte discriminator sha256("account:IdlAccount"), 32-byte
 * authority, u32 length, zlib-deflated JSON. The simulator's IDL is in the Anchor 0.30 format and
 * describes every `Swap` variant up to index 199: the public IDL's first 109, and the simulator's own
 * venues past them (swapVenues.ts). A test can make it absent, truncated, or lying.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { PublicKey } from '@solana/web3.js';
import { BUNDLED_SWAP_TYPES, BUNDLED_SWAP_VARIANTS } from '../solana/decode/jupiterSwapVariants.js';
import { derivedAddress, ProgramId } from './programIds.js';

export const AGGREGATOR_IDL_KINDS = ['published', 'absent', 'truncated', 'lying'] as const;
export type AggregatorIdlKind = (typeof AGGREGATOR_IDL_KINDS)[number];

/** The slot the simulated program was last deployed at. */
export const AGGREGATOR_DEPLOY_SLOT = 301_234_567;
/** How many `Swap` variants the simulator's IDL describes. */
export const IDL_VARIANTS = 200;

const program = ProgramId.jupiterAggregatorV6;
export const AGGREGATOR_PROGRAM_DATA = PublicKey.findProgramAddressSync([program.toBuffer()], new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111'))[0];
export const AGGREGATOR_IDL_ADDRESS = new PublicKey(
  createHash('sha256')
    .update(Buffer.concat([PublicKey.findProgramAddressSync([], program)[0].toBuffer(), Buffer.from('anchor:idl'), program.toBuffer()]))
    .digest(),
);
const AUTHORITY = derivedAddress('jupbot-sim:aggregator-upgrade-authority');

type Type = string | Record<string, unknown>;
const side = { defined: { name: 'Side' } };
const remaining = { defined: { name: 'RemainingAccountsInfo' } };

/** The simulator's own venues past the public IDL (their bytes are built in swapVenues.ts). */
const OWN_VENUES: Readonly<Record<number, { name: string; fields: { name: string; type: Type }[] }>> = {
  122: { name: 'TesseraZ', fields: [] },
  125: {
    name: 'Obsidian',
    fields: [
      { name: 'a_to_b', type: 'bool' },
      { name: 'pool_kind', type: 'u8' },
    ],
  },
  141: {
    name: 'AuroraClob',
    fields: [
      { name: 'side', type: side },
      { name: 'max_levels', type: 'u64' },
      { name: 'remaining_accounts_info', type: { option: remaining } },
    ],
  },
  186: {
    name: 'Lumen',
    fields: [
      { name: 'route_tag', type: { array: ['u8', 4] } },
      { name: 'pool_id', type: 'u32' },
    ],
  },
};

/** An Anchor 0.30 type from the public IDL's older form (`{defined: "X"}` → `{defined: {name: "X"}}`). */
function modern(type: unknown): unknown {
  if (typeof type === 'string' || type === null || typeof type !== 'object') return type;
  if (Array.isArray(type)) return type.map(modern);
  const t = type as Record<string, unknown>;
  if ('defined' in t) return { defined: { name: t['defined'] } };
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, modern(v)]));
}

/** The IDL JSON for `kind` (null when there is none). */
export function aggregatorIdl(kind: AggregatorIdlKind): Record<string, unknown> | null {
  if (kind === 'absent') return null;
  const variants: Record<string, unknown>[] = [];
  for (let i = 0; i < IDL_VARIANTS; i++) {
    const known = BUNDLED_SWAP_VARIANTS[i];
    const own = OWN_VENUES[i];
    if (known) variants.push({ name: known.name, ...(known.fields && known.fields.length > 0 ? { fields: known.fields.map(modern) } : {}) });
    else if (own) variants.push({ name: own.name, ...(own.fields.length > 0 ? { fields: own.fields } : {}) });
    else variants.push({ name: `Venue${i}` });
  }
  if (kind === 'lying') {
    // Claims another program's layout: a known venue renamed and reshaped, a new one misdescribed.
    variants[17] = { name: 'WhirlpoolDeluxe', fields: ['u64', 'u64'] };
    variants[141] = { name: 'AuroraClob', fields: [{ name: 'side', type: side }] };
  }
  const types = [...BUNDLED_SWAP_TYPES.map((t) => ({ name: t.name, type: modern(t.type) })), { name: 'Swap', type: { kind: 'enum', variants } }];
  return { address: program.toBase58(), metadata: { name: 'jupiter', version: '0.1.0', spec: '0.1.0' }, instructions: [], types };
}

const accounts = new Map<AggregatorIdlKind, Buffer | null>();

/** The IDL account's bytes for `kind`, or null when there is no account (built once per kind). */
export function aggregatorIdlAccount(kind: AggregatorIdlKind): Buffer | null {
  if (!accounts.has(kind)) accounts.set(kind, buildIdlAccount(kind));
  return accounts.get(kind) ?? null;
}

function buildIdlAccount(kind: AggregatorIdlKind): Buffer | null {
  const idl = aggregatorIdl(kind);
  if (idl === null) return null;
  const body = deflateSync(Buffer.from(JSON.stringify(idl), 'utf8'));
  const header = Buffer.alloc(44);
  createHash('sha256').update('account:IdlAccount').digest().copy(header, 0, 0, 8);
  AUTHORITY.toBuffer().copy(header, 8);
  header.writeUInt32LE(body.length, 40);
  // Truncated: the header promises the whole IDL, the account holds half of it.
  return Buffer.concat([header, kind === 'truncated' ? body.subarray(0, Math.floor(body.length / 2)) : body]);
}

/** The program account: the loader's `Program` tag (2) and the program-data account's address. */
export function aggregatorProgramAccount(): Buffer {
  const data = Buffer.alloc(36);
  data.writeUInt32LE(2, 0);
  AGGREGATOR_PROGRAM_DATA.toBuffer().copy(data, 4);
  return data;
}

/** The program-data header: the loader's `ProgramData` tag (3), the deploy slot, the upgrade authority. */
export function aggregatorProgramData(): Buffer {
  const data = Buffer.alloc(4 + 8 + 1 + 32);
  data.writeUInt32LE(3, 0);
  data.writeBigUInt64LE(BigInt(AGGREGATOR_DEPLOY_SLOT), 4);
  data.writeUInt8(1, 12);
  AUTHORITY.toBuffer().copy(data, 13);
  return data;
}
