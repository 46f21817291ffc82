/**
 * Jupiter Aggregator v6 swap instructions decoded by the program's IDL: each entry point's account
 * list by role, and its Borsh arguments read front to back with the exact data length (nothing is
 * read from the end, so trailing bytes cannot disguise an amount). Covers the ExactIn and ExactOut
 * routes, their shared-accounts and token-ledger forms, and the `*_v2` entry points whose amounts
 * come before the route plan. Anything else of the program is not a swap this decoder knows.
 *
 * A route step names its venue by an index into the program's `Swap` enum, which grows with every
 * new venue. In the `*_v2` forms the plan is the last argument, so a venue the table does not know
 * only stops the walk of the plan: the amounts, slippage and fee before it were read, and the
 * unknown venue is reported. In the older forms the amounts follow the plan, so an unknown venue
 * hides them and the instruction cannot be decoded.
 */
import { createHash } from 'node:crypto';
import { BorshError, BorshReader } from './borshReader.js';
import { SwapVariantTable, UnknownSwapVariant } from './swapVariantTable.js';

export type SwapInstructionName =
  | 'route'
  | 'route_with_token_ledger'
  | 'exact_out_route'
  | 'shared_accounts_route'
  | 'shared_accounts_route_with_token_ledger'
  | 'shared_accounts_exact_out_route'
  | 'route_v2'
  | 'exact_out_route_v2'
  | 'shared_accounts_route_v2'
  | 'shared_accounts_exact_out_route_v2';

export interface RouteStep {
  readonly venue: string;
  /** The venue's `Swap` variant index. */
  readonly variant: number;
  /** Percent (v1 plans) or basis points (v2 plans) of the step's input. */
  readonly share: number;
  readonly inputIndex: number;
  readonly outputIndex: number;
}

export interface JupiterSwapInstruction {
  readonly name: SwapInstructionName;
  readonly mode: 'ExactIn' | 'ExactOut';
  /** The input amount comes from a token-ledger account, not from the data. */
  readonly tokenLedger: boolean;
  readonly shared: boolean;
  /** `id` of the shared-accounts forms (the program authority's seed). */
  readonly id: number | null;
  /** Accounts by their IDL role name; optional ones left out hold `null`. */
  readonly accounts: Readonly<Record<string, string | null>>;
  /** ExactIn: what leaves the source; null for the token-ledger forms. */
  readonly inAmount: bigint | null;
  readonly quotedOutAmount: bigint | null;
  /** ExactOut: what must arrive, and the quoted input. */
  readonly outAmount: bigint | null;
  readonly quotedInAmount: bigint | null;
  readonly slippageBps: number;
  readonly platformFeeBps: number;
  readonly positiveSlippageBps: number | null;
  /** The steps decoded, in order: all of them unless `unknownVenue` stopped the walk. */
  readonly steps: readonly RouteStep[];
  /** A `*_v2` plan step whose venue the table does not describe: its index and step; the walk stopped there. */
  readonly unknownVenue: { readonly variant: number; readonly step: number } | null;
  /** Which venue table walked the plan (`SwapVariantTable.describe()`). */
  readonly venueTable: string;
}

export type SwapDecodeFailure = 'INSTRUCTION_NOT_ALLOWED' | 'ROUTE_PLAN_UNDECODABLE' | 'ROUTE_DATA_MALFORMED';

export class SwapDecodeError extends Error {
  override name = 'SwapDecodeError';
  constructor(
    readonly failure: SwapDecodeFailure,
    message: string,
    /** For an undecodable plan: the unknown variant and the step that names it. */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

type Arg =
  | 'id'
  | 'plan'
  | 'planV2'
  | 'inAmount'
  | 'quotedOutAmount'
  | 'outAmount'
  | 'quotedInAmount'
  | 'slippageBps'
  | 'platformFeeBps8'
  | 'platformFeeBps16'
  | 'positiveSlippageBps';

interface Layout {
  readonly name: SwapInstructionName;
  readonly accounts: readonly string[];
  readonly args: readonly Arg[];
}

const ROUTE_ACCOUNTS = [
  'tokenProgram',
  'userTransferAuthority',
  'userSourceTokenAccount',
  'userDestinationTokenAccount',
  'destinationTokenAccount',
  'destinationMint',
  'platformFeeAccount',
];
const SHARED_ACCOUNTS = [
  'tokenProgram',
  'programAuthority',
  'userTransferAuthority',
  'sourceTokenAccount',
  'programSourceTokenAccount',
  'programDestinationTokenAccount',
  'destinationTokenAccount',
  'sourceMint',
  'destinationMint',
  'platformFeeAccount',
  'token2022Program',
];
const V2_ACCOUNTS = [
  'userTransferAuthority',
  'userSourceTokenAccount',
  'userDestinationTokenAccount',
  'sourceMint',
  'destinationMint',
  'sourceTokenProgram',
  'destinationTokenProgram',
  'destinationTokenAccount',
];
const SHARED_V2_ACCOUNTS = [
  'programAuthority',
  'userTransferAuthority',
  'sourceTokenAccount',
  'programSourceTokenAccount',
  'programDestinationTokenAccount',
  'destinationTokenAccount',
  'sourceMint',
  'destinationMint',
  'sourceTokenProgram',
  'destinationTokenProgram',
];
const EVENT = ['eventAuthority', 'program'];

const LAYOUTS: readonly Layout[] = [
  { name: 'route', accounts: [...ROUTE_ACCOUNTS, ...EVENT], args: ['plan', 'inAmount', 'quotedOutAmount', 'slippageBps', 'platformFeeBps8'] },
  {
    name: 'route_with_token_ledger',
    accounts: [...ROUTE_ACCOUNTS, 'tokenLedger', ...EVENT],
    args: ['plan', 'quotedOutAmount', 'slippageBps', 'platformFeeBps8'],
  },
  {
    name: 'exact_out_route',
    accounts: [
      'tokenProgram',
      'userTransferAuthority',
      'userSourceTokenAccount',
      'userDestinationTokenAccount',
      'destinationTokenAccount',
      'sourceMint',
      'destinationMint',
      'platformFeeAccount',
      'token2022Program',
      ...EVENT,
    ],
    args: ['plan', 'outAmount', 'quotedInAmount', 'slippageBps', 'platformFeeBps8'],
  },
  {
    name: 'shared_accounts_route',
    accounts: [...SHARED_ACCOUNTS, ...EVENT],
    args: ['id', 'plan', 'inAmount', 'quotedOutAmount', 'slippageBps', 'platformFeeBps8'],
  },
  {
    name: 'shared_accounts_route_with_token_ledger',
    accounts: [...SHARED_ACCOUNTS, 'tokenLedger', ...EVENT],
    args: ['id', 'plan', 'quotedOutAmount', 'slippageBps', 'platformFeeBps8'],
  },
  {
    name: 'shared_accounts_exact_out_route',
    accounts: [...SHARED_ACCOUNTS, ...EVENT],
    args: ['id', 'plan', 'outAmount', 'quotedInAmount', 'slippageBps', 'platformFeeBps8'],
  },
  {
    name: 'route_v2',
    accounts: [...V2_ACCOUNTS, ...EVENT],
    args: ['inAmount', 'quotedOutAmount', 'slippageBps', 'platformFeeBps16', 'positiveSlippageBps', 'planV2'],
  },
  {
    name: 'exact_out_route_v2',
    accounts: [...V2_ACCOUNTS, ...EVENT],
    args: ['outAmount', 'quotedInAmount', 'slippageBps', 'platformFeeBps16', 'positiveSlippageBps', 'planV2'],
  },
  {
    name: 'shared_accounts_route_v2',
    accounts: [...SHARED_V2_ACCOUNTS, ...EVENT],
    args: ['id', 'inAmount', 'quotedOutAmount', 'slippageBps', 'platformFeeBps16', 'positiveSlippageBps', 'planV2'],
  },
  {
    name: 'shared_accounts_exact_out_route_v2',
    accounts: [...SHARED_V2_ACCOUNTS, ...EVENT],
    args: ['id', 'outAmount', 'quotedInAmount', 'slippageBps', 'platformFeeBps16', 'positiveSlippageBps', 'planV2'],
  },
];

/** Anchor's instruction discriminator: the first 8 bytes of sha256("global:<name>"). */
export function anchorDiscriminator(name: string): Buffer {
  return createHash('sha256').update(`global:${name}`).digest().subarray(0, 8);
}

const BY_DISCRIMINATOR = new Map(LAYOUTS.map((layout) => [anchorDiscriminator(layout.name).toString('hex'), layout]));

/** Account roles that are optional: the program's own id in that slot means "none". */
const OPTIONAL = new Set(['destinationTokenAccount', 'platformFeeAccount', 'token2022Program']);

/** True when `data` starts with the discriminator of a swap entry point this decoder knows. */
export function isJupiterSwapData(data: Uint8Array): boolean {
  return data.byteLength >= 8 && BY_DISCRIMINATOR.has(Buffer.from(data.subarray(0, 8)).toString('hex'));
}

/**
 * Decodes a v6 swap instruction. `program` is the Aggregator's id (for the "none" convention);
 * `accounts` the instruction's accounts as addresses, lookup tables already resolved; `table` the
 * venues it knows (the bundled ones unless an IDL extended them).
 */
export function decodeJupiterSwap(
  program: string,
  accounts: readonly string[],
  data: Uint8Array,
  table: SwapVariantTable = SwapVariantTable.bundled(),
): JupiterSwapInstruction {
  const layout = data.byteLength >= 8 ? BY_DISCRIMINATOR.get(Buffer.from(data.subarray(0, 8)).toString('hex')) : undefined;
  if (!layout) throw new SwapDecodeError('INSTRUCTION_NOT_ALLOWED', 'not a Jupiter v6 swap entry point this decoder knows');
  if (accounts.length < layout.accounts.length) {
    throw new SwapDecodeError('ROUTE_DATA_MALFORMED', `${layout.name} names ${accounts.length} accounts; its IDL lists ${layout.accounts.length}`);
  }
  const byRole: Record<string, string | null> = {};
  layout.accounts.forEach((role, i) => {
    const address = accounts[i] as string;
    byRole[role] = OPTIONAL.has(role) && address === program ? null : address;
  });
  return decodeArgs(layout, byRole, data, table);
}

function decodeArgs(layout: Layout, byRole: Record<string, string | null>, data: Uint8Array, table: SwapVariantTable): JupiterSwapInstruction {
  const reader = new BorshReader(data, 8);
  const values: Partial<Record<Arg, number | bigint>> = {};
  const steps: RouteStep[] = [];
  let unknownVenue: JupiterSwapInstruction['unknownVenue'] = null;
  /** Steps walked with venues learned from an IDL: if the bytes do not fit, the IDL may be what is wrong. */
  const learned: { step: number; variant: number }[] = [];
  try {
    for (const arg of layout.args) {
      switch (arg) {
        case 'id':
        case 'platformFeeBps8':
          values[arg] = reader.u8(arg);
          break;
        case 'slippageBps':
        case 'platformFeeBps16':
        case 'positiveSlippageBps':
          values[arg] = reader.u16(arg);
          break;
        case 'plan':
        case 'planV2': {
          const v2 = arg === 'planV2';
          const length = reader.u32('routePlan length');
          if (length === 0) throw new BorshError('the route plan is empty');
          if (length > 64) throw new BorshError(`routePlan has ${length} items, more than 64`);
          for (let step = 0; step < length; step++) {
            let venue;
            try {
              venue = table.read(reader);
            } catch (error) {
              // In a v2 form the plan is the last argument: what it moves was read already.
              if (v2 && error instanceof UnknownSwapVariant) {
                unknownVenue = { variant: error.index, step };
                break;
              }
              if (error instanceof UnknownSwapVariant)
                throw new SwapDecodeError('ROUTE_PLAN_UNDECODABLE', `${layout.name}: step ${step}: ${error.message}`, { variant: error.index, step });
              throw error;
            }
            if (venue.learned) learned.push({ step, variant: venue.index });
            steps.push({
              venue: venue.name,
              variant: venue.index,
              share: v2 ? reader.u16('bps') : reader.u8('percent'),
              inputIndex: reader.u8('inputIndex'),
              outputIndex: reader.u8('outputIndex'),
            });
          }
          break;
        }
        default:
          values[arg] = reader.u64(arg);
      }
      if (unknownVenue !== null) break;
    }
    if (unknownVenue === null) reader.end(layout.name);
  } catch (error) {
    if (error instanceof BorshError || error instanceof RangeError) {
      const first = learned[0];
      const hint = first === undefined ? '' : ` (the plan was walked with venue ${first.variant} as ${table.describe()} describes it, which may be wrong)`;
      throw new SwapDecodeError('ROUTE_DATA_MALFORMED', `${layout.name}: ${error.message}${hint}`, first === undefined ? {} : { ...first, learned: true });
    }
    throw error;
  }

  const big = (arg: Arg): bigint | null => (values[arg] === undefined ? null : BigInt(values[arg]));
  const num = (arg: Arg): number | null => (values[arg] === undefined ? null : Number(values[arg]));
  return {
    name: layout.name,
    mode: layout.args.includes('outAmount') ? 'ExactOut' : 'ExactIn',
    tokenLedger: layout.accounts.includes('tokenLedger'),
    shared: layout.accounts.includes('programAuthority'),
    id: num('id'),
    accounts: byRole,
    inAmount: big('inAmount'),
    quotedOutAmount: big('quotedOutAmount'),
    outAmount: big('outAmount'),
    quotedInAmount: big('quotedInAmount'),
    slippageBps: num('slippageBps') ?? 0,
    platformFeeBps: num('platformFeeBps8') ?? num('platformFeeBps16') ?? 0,
    positiveSlippageBps: num('positiveSlippageBps'),
    steps,
    unknownVenue,
    venueTable: table.describe(),
  };
}

/** The user's source token account, whichever form. */
export function swapSource(ix: JupiterSwapInstruction): string {
  return (ix.accounts['userSourceTokenAccount'] ?? ix.accounts['sourceTokenAccount']) as string;
}

/** Every account the instruction can pay output or fees into, with its role. */
export function swapReceivers(ix: JupiterSwapInstruction): { role: string; address: string }[] {
  return ['userDestinationTokenAccount', 'destinationTokenAccount', 'platformFeeAccount']
    .map((role) => ({ role, address: ix.accounts[role] }))
    .filter((r): r is { role: string; address: string } => typeof r.address === 'string');
}
