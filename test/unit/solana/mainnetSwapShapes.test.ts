/**
 * Swap V2 transactions in the shapes mainnet shows (public captures of 2026-09/10, kept out of the
 * repository): `route_v2` carrying Jupiter's fee equal to the answer's `feeBps` (11 bps on a gasless
 * USDC→SOL swap), route steps through `Swap` variants past every public IDL (122, 125, 141, 186), an
 * empty payer slot (the gas wallet signs at /execute, after us), an RFQ fill that takes Jupiter's
 * 10 bps as a SOL transfer (4,597 lamports on a net 4,592,968) followed by SyncNative, and the
 * answer's `otherAmountThreshold` rounded as the program rounds (99,033,602 at 50 bps → 98,538,434).
 * Built with the test's own writers (jupiterTx.ts), not the simulator's.
 */
import { PublicKey, TransactionInstruction, type VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { minimumOut } from '../../../src/engine/executor/swap/swapHandler.js';
import { BUNDLED_SWAP_TYPES, BUNDLED_SWAP_VARIANTS } from '../../../src/solana/decode/jupiterSwapVariants.js';
import { SwapVariantTable } from '../../../src/solana/decode/swapVariantTable.js';
import type { SwapExpectation } from '../../../src/solana/expectation.js';
import { checkTransaction, type GuardOptions, type VenueSource } from '../../../src/solana/guard.js';
import { GuardRefusal, type RefusalReason } from '../../../src/solana/guardRefusal.js';
import { ProgramId } from '../../../src/sim/programIds.js';
import { computeBudget } from '../../../src/sim/txBuilder.js';
import { ORDER_ENGINE, presign, routeV2Ix, type Step } from './jupiterTx.js';
import { ata, keypair, SOL, STRANGER, system, tx, USDC, W, wallet } from './txFactory.js';

const GAS = keypair('mainnet-gas-wallet');
const MAKER = keypair('mainnet-rfq-maker');
/** A venue past the 109 the bundled table knows, with fields of its own: (bool, u64). */
const VENUE_141: Step = { variant: 141, fields: [1, 0x10, 0x27, 0, 0, 0, 0, 0, 0] };
const NET = 4_592_968n;

/** The answer of a gasless USDC→SOL order: 11 bps of Jupiter's fee, its gas wallet paying. */
const gasless: SwapExpectation = {
  kind: 'swap',
  inputMint: USDC,
  outputMint: SOL,
  maxInAmount: 5_000_000n,
  minOutAmount: minimumOut(33_000_000n, 50),
  quotedOutAmount: 33_000_000n,
  maxSlippageBps: 50,
  feeBps: 11,
  gasless: true,
  feePayer: GAS.publicKey.toBase58(),
  declaredFeeLamports: 10_000n,
};

interface V2 {
  inAmount?: bigint;
  quotedOutAmount?: bigint;
  slippageBps?: number;
  platformFeeBps?: number;
  destination?: PublicKey | null;
  trailing?: Uint8Array;
  steps?: readonly Step[];
}

function v2(change: V2 = {}): TransactionInstruction {
  const ix = routeV2Ix({
    authority: W,
    source: ata(W, USDC),
    userDestination: ata(W, SOL),
    destinationMint: new PublicKey(SOL),
    sourceMint: new PublicKey(USDC),
    inAmount: change.inAmount ?? 5_000_000n,
    quotedOutAmount: change.quotedOutAmount ?? 33_000_000n,
    slippageBps: change.slippageBps ?? 50,
    platformFeeBps: change.platformFeeBps ?? 11,
    steps: change.steps ?? [VENUE_141],
    ...(change.destination === undefined ? {} : { destination: change.destination }),
  });
  if (!change.trailing) return ix;
  return new TransactionInstruction({ programId: ix.programId, keys: ix.keys, data: Buffer.concat([ix.data, change.trailing]) });
}

/** The gasless transaction as /order hands it out: Jupiter's payer first, its slot empty until /execute. */
function gaslessTx(route: TransactionInstruction, signers: readonly (typeof GAS)[] = []): VersionedTransaction {
  return presign(tx(GAS.publicKey, [...computeBudget(300_000, 5_000), route, system.transfer(W, GAS.publicKey, 10_000n)]), signers);
}

const options: GuardOptions = { wallet };

async function reason(t: VersionedTransaction, expectation: SwapExpectation, extra: Partial<GuardOptions> = {}): Promise<RefusalReason | 'accepted'> {
  try {
    await checkTransaction(t, expectation, { ...options, ...extra });
    return 'accepted';
  } catch (error) {
    if (error instanceof GuardRefusal) return error.reason;
    throw error;
  }
}

/** An IDL of the program that describes the bundled venues and, past them, variant 141 as (bool, u64). */
function idlWith141(): unknown {
  const variants = [
    ...BUNDLED_SWAP_VARIANTS.map((v) => ({ ...v })),
    ...Array.from({ length: 141 - BUNDLED_SWAP_VARIANTS.length }, (_, i) => ({ name: `Venue${109 + i}` })),
  ];
  variants.push({
    name: 'NewClob',
    fields: [
      { name: 'a_to_b', type: 'bool' },
      { name: 'levels', type: 'u64' },
    ],
  } as never);
  return { types: [...BUNDLED_SWAP_TYPES, { name: 'Swap', type: { kind: 'enum', variants } }] };
}

describe('route_v2 as mainnet builds it', () => {
  it("with Jupiter's 11 bps equal to the answer's feeBps, through venue 141, the payer's slot empty: accepted, the venue reported", async () => {
    const summary = await checkTransaction(gaslessTx(v2()), gasless, options);
    const [swap] = summary.swaps;
    expect(swap).toMatchObject({ name: 'route_v2', inAmount: 5_000_000n, quotedOutAmount: 33_000_000n, slippageBps: 50, platformFeeBps: 11 });
    expect(swap?.unknownVenue).toEqual({ variant: 141, step: 0 });
    expect(swap?.venueTable).toBe('bundled (109 venues)');
    expect(summary.signatures).toEqual([
      { address: GAS.publicKey.toBase58(), state: 'empty' },
      { address: wallet, state: 'ours' },
    ]);
    // We pay no network fee; the declared refund is all the SOL we may lose.
    expect(summary.solBudgetLamports).toBe(10_000n);
  });

  it.each<[string, () => VersionedTransaction, SwapExpectation, RefusalReason]>([
    ['a fee the answer did not declare', () => gaslessTx(v2()), { ...gasless, feeBps: 0 }, 'PLATFORM_FEE_UNDECLARED'],
    ['a fee of 500 bps against the 11 declared', () => gaslessTx(v2({ platformFeeBps: 500 })), gasless, 'PLATFORM_FEE_EXCEEDS_DECLARED'],
    [
      'a fee of 500 bps the answer declared, over guard.max_fee_bps',
      () => gaslessTx(v2({ platformFeeBps: 500 })),
      { ...gasless, feeBps: 500 },
      'PLATFORM_FEE_EXCEEDS_CAP',
    ],
    ['slippage raised over the cap', () => gaslessTx(v2({ slippageBps: 51 })), gasless, 'SLIPPAGE_EXCEEDS_CAP'],
    ['in_amount raised by one unit', () => gaslessTx(v2({ inAmount: 5_000_001n })), gasless, 'AMOUNT_EXCEEDS_INTENT'],
    ["the destination swapped for a stranger's", () => gaslessTx(v2({ destination: ata(STRANGER, SOL) })), gasless, 'SWAP_DESTINATION_NOT_OURS'],
    ['a quoted output one unit short', () => gaslessTx(v2({ quotedOutAmount: 32_999_999n })), gasless, 'QUOTED_OUT_BELOW_MINIMUM'],
    ['a present but invalid payer signature', () => spoiled(gaslessTx(v2(), [GAS])), gasless, 'SIGNATURE_INVALID'],
  ])('with %s: refused', async (_name, build, expectation, expected) => {
    expect(await reason(build(), expectation)).toBe(expected);
  });

  it('a trailing byte after a plan the venue table walks to its end: refused; the same venue learned from an IDL walks it', async () => {
    const trailing = gaslessTx(v2({ trailing: new Uint8Array([0]) }));
    // Bundled venues only: the walk stops at 141, so what follows it cannot be told from its fields.
    expect(await reason(trailing, gasless)).toBe('accepted');
    const { table, problem } = SwapVariantTable.bundled().extend(idlWith141(), { kind: 'file', path: 'idl.json' });
    expect(problem).toBeNull();
    const venues: VenueSource = { table: () => table, learn: () => Promise.resolve(table) };
    expect(await reason(trailing, gasless, { venues })).toBe('ROUTE_DATA_MALFORMED');
    const summary = await checkTransaction(gaslessTx(v2()), gasless, { ...options, venues });
    expect(summary.swaps[0]).toMatchObject({ unknownVenue: null, steps: [{ venue: 'NewClob', variant: 141, share: 10_000 }] });
    expect(summary.swaps[0]?.venueTable).toBe('IDL file idl.json (109 bundled + 33 learned venues)');
  });

  it("a present payer signature that verifies is accepted as the payer's", async () => {
    const summary = await checkTransaction(gaslessTx(v2(), [GAS]), gasless, options);
    expect(summary.signatures[0]).toEqual({ address: GAS.publicKey.toBase58(), state: 'present' });
  });

  it("the answer's otherAmountThreshold is the intent's minimum to the unit", async () => {
    // 99,033,602 at 50 bps: Jupiter answers 98,538,434; floor(99,033,602 × 9,950 / 10,000) is 98,538,433.
    expect(minimumOut(99_033_602n, 50)).toBe(98_538_434n);
    const exact: SwapExpectation = { ...gasless, quotedOutAmount: 99_033_602n, minOutAmount: 98_538_434n };
    expect(await reason(gaslessTx(v2({ quotedOutAmount: 99_033_602n })), exact)).toBe('accepted');
    expect(await reason(gaslessTx(v2({ quotedOutAmount: 99_033_602n, slippageBps: 50 })), { ...exact, minOutAmount: 98_538_435n })).toBe(
      'QUOTED_OUT_BELOW_MINIMUM',
    );
  });
});

describe('an RFQ fill that takes Jupiter’s fee in SOL', () => {
  const feeAccount = ata(keypair('mainnet-jupiter-fee-owner').publicKey, SOL);
  const rfq: SwapExpectation = {
    kind: 'swap',
    inputMint: USDC,
    outputMint: SOL,
    maxInAmount: 700_000n,
    minOutAmount: minimumOut(NET, 0),
    quotedOutAmount: NET,
    maxSlippageBps: 0,
    feeBps: 10,
    gasless: true,
    rfqMaker: MAKER.publicKey.toBase58(),
    feePayer: MAKER.publicKey.toBase58(),
  };
  const fill = new TransactionInstruction({
    programId: ORDER_ENGINE,
    keys: [
      { pubkey: W, isSigner: true, isWritable: true },
      { pubkey: MAKER.publicKey, isSigner: true, isWritable: true },
      { pubkey: ata(W, USDC), isSigner: false, isWritable: true },
      { pubkey: ata(W, SOL), isSigner: false, isWritable: true },
    ],
    data: Buffer.alloc(32, 1),
  });
  const syncNative = (account: PublicKey): TransactionInstruction =>
    new TransactionInstruction({ programId: ProgramId.token, keys: [{ pubkey: account, isSigner: false, isWritable: true }], data: Buffer.from([17]) });
  const build = (...after: TransactionInstruction[]): VersionedTransaction => tx(MAKER.publicKey, [fill, ...after]);

  it('with the fee transfer of 4,597 lamports on 4,592,968, then SyncNative: accepted, the fee in our SOL budget', async () => {
    const summary = await checkTransaction(build(system.transfer(W, feeAccount, 4_597n), syncNative(feeAccount)), rfq, options);
    expect(summary.outflows).toEqual([{ mint: SOL, amount: 4_597n, to: feeAccount.toBase58() }]);
    expect(summary.solBudgetLamports).toBe(4_597n);
  });

  it.each<[string, () => VersionedTransaction, RefusalReason]>([
    ['twice the fee', () => build(system.transfer(W, feeAccount, 9_194n), syncNative(feeAccount)), 'RFQ_FEE_EXCEEDS_DECLARED'],
    [
      'the fee split over two accounts',
      () => {
        const second = ata(STRANGER, SOL);
        return build(system.transfer(W, feeAccount, 2_000n), syncNative(feeAccount), system.transfer(W, second, 2_000n), syncNative(second));
      },
      'RFQ_FEE_EXCEEDS_DECLARED',
    ],
    ['the transfer with no SyncNative after it', () => build(system.transfer(W, feeAccount, 4_597n)), 'TRANSFER_TO_STRANGER'],
  ])('with %s: refused', async (_name, make, expected) => {
    expect(await reason(make(), rfq)).toBe(expected);
  });

  it('the same transfer when the answer declared no fee: refused', async () => {
    expect(await reason(build(system.transfer(W, feeAccount, 4_597n), syncNative(feeAccount)), { ...rfq, feeBps: 0 })).toBe('RFQ_FEE_EXCEEDS_DECLARED');
  });
});

function spoiled(t: VersionedTransaction): VersionedTransaction {
  const sig = t.signatures[0] as Uint8Array;
  sig[5] = (sig[5] ?? 0) ^ 1;
  return t;
}
