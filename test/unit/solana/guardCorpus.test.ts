import type { Keypair } from '@solana/web3.js';
import { PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import type { Expectation, SwapExpectation } from '../../../src/solana/expectation.js';
import { checkTransaction, type GuardOptions } from '../../../src/solana/guard.js';
import { GuardRefusal, type RefusalReason } from '../../../src/solana/guardRefusal.js';
import { programAuthority } from '../../../src/solana/swapRules.js';
import { ProgramId } from '../../../src/sim/programIds.js';
import { computeBudget, memo, transferInstructions } from '../../../src/sim/txBuilder.js';
import {
  claimIx,
  JUP as JUP6,
  ORDER_ENGINE,
  orderIx,
  type OrderArgs,
  presign,
  routeIx,
  type RouteArgs,
  routeV2Ix,
  sharedRouteIx,
  tablesResolver,
} from './jupiterTx.js';
import {
  ata,
  BLOCKHASH,
  createAta,
  depositIxs,
  JUP,
  keypair,
  loginMemo,
  lookupTable,
  SOL,
  STRANGER,
  swapIxs,
  system,
  token,
  tx,
  unknownProgram,
  USDC,
  VAULT,
  vault,
  W,
  wallet,
  withdrawalIxs,
} from './txFactory.js';

const options: GuardOptions = { wallet };

const login: Expectation = { kind: 'login-challenge' };
const deposit: Expectation = { kind: 'vault-deposit', mint: USDC, amount: 50_000_000n, vault };
const solDeposit: Expectation = { kind: 'vault-deposit', mint: SOL, amount: 1_000_000_000n, vault };
const withdrawal: Expectation = { kind: 'vault-withdrawal', vault };
const swap: SwapExpectation = {
  kind: 'swap',
  inputMint: SOL,
  outputMint: USDC,
  maxInAmount: 100_000_000n,
  minOutAmount: 990_000n,
  quotedOutAmount: 1_000_000n,
  maxSlippageBps: 100,
};

const GAS = keypair('guard-gas-payer');
const PROTOCOL = keypair('guard-protocol-signer');
const MAKER = keypair('guard-rfq-maker');
const position = keypair('guard-position').publicKey;
const market = keypair('guard-market').publicKey;
const orderAccount = keypair('guard-order').publicKey;
const other = keypair('guard-other-signer').publicKey;
const sell: Expectation = {
  kind: 'prediction-sell',
  position: position.toBase58(),
  isYes: false,
  maxContracts: 5_000_000n,
  minPriceMicroUsd: 400_000n,
  externalOrderId: 'ext-1',
};
const claim: Expectation = { kind: 'prediction-claim', position: position.toBase58() };

/** The route our swap intent expects, with `change` applied. */
function route(change: Partial<RouteArgs> = {}): TransactionInstruction {
  return routeIx({
    authority: W,
    source: ata(W, SOL),
    userDestination: ata(W, USDC),
    destinationMint: new PublicKey(USDC),
    inAmount: 100_000_000n,
    quotedOutAmount: 1_000_000n,
    ...change,
  });
}

/** A prediction sale as Jupiter builds it: its payer and protocol co-signer have signed already. */
function saleTx(change: Partial<OrderArgs> = {}, signers: Keypair[] = [GAS, PROTOCOL]): VersionedTransaction {
  const ix = orderIx({
    payer: GAS.publicKey,
    owner: W,
    protocol: PROTOCOL.publicKey,
    market,
    position,
    order: orderAccount,
    funding: ata(W, USDC),
    mint: new PublicKey(USDC),
    externalOrderId: 'ext-1',
    isYes: false,
    isBuy: false,
    contracts: 5_000_000n,
    priceBound: 400_000n,
    ...change,
  });
  return presign(tx(change.payer ?? GAS.publicKey, [...computeBudget(200_000, 1_000), ix]), signers);
}

function claimTx(change: { position?: PublicKey; funding?: PublicKey } = {}): VersionedTransaction {
  const ix = claimIx({
    payer: GAS.publicKey,
    owner: W,
    protocol: PROTOCOL.publicKey,
    market,
    position: change.position ?? position,
    funding: change.funding ?? ata(W, USDC),
    mint: new PublicKey(USDC),
  });
  return presign(tx(GAS.publicKey, [ix]), [GAS, PROTOCOL]);
}

/** A gasless swap: Jupiter's payer has signed, we pay back at most what the answer declared. */
function gaslessTx(refund: bigint, signers: Keypair[] = [GAS]): VersionedTransaction {
  return presign(tx(GAS.publicKey, [...computeBudget(300_000, 5_000), route(), system.transfer(W, GAS.publicKey, refund)]), signers);
}
const gasless: SwapExpectation = { ...swap, gasless: true, feePayer: GAS.publicKey.toBase58(), declaredFeeLamports: 10_000n };

/** An RFQ fill: the maker pays and signs after us at /execute. */
function rfqTx(payer: PublicKey): VersionedTransaction {
  const fill = new TransactionInstruction({
    programId: ORDER_ENGINE,
    keys: [
      { pubkey: W, isSigner: true, isWritable: true },
      { pubkey: MAKER.publicKey, isSigner: true, isWritable: true },
      { pubkey: ata(W, SOL), isSigner: false, isWritable: true },
      { pubkey: ata(W, USDC), isSigner: false, isWritable: true },
    ],
    data: Buffer.alloc(32, 1),
  });
  return tx(payer, [fill]);
}
const rfq: SwapExpectation = { ...swap, gasless: true, rfqMaker: MAKER.publicKey.toBase58(), feePayer: MAKER.publicKey.toBase58() };

const hiddenStrangerAta = lookupTable('stranger', [ata(STRANGER, USDC)]);
const venueTable = lookupTable('venues', [keypair('pool-a').publicKey, keypair('pool-b').publicKey, ata(STRANGER, USDC)]);

interface Case {
  name: string;
  expectation: Expectation;
  build: () => VersionedTransaction;
  reason: RefusalReason;
  options?: Partial<GuardOptions>;
}

const corpus: Case[] = [
  // Login challenges: memo-only, signed by us alone.
  { name: 'login challenge paid by a stranger', expectation: login, build: () => tx(STRANGER, [loginMemo()]), reason: 'FEE_PAYER_MISMATCH' },
  {
    name: 'login challenge that carries a SOL transfer',
    expectation: login,
    build: () => tx(W, [loginMemo(), system.transfer(W, STRANGER, 1_000_000n)]),
    reason: 'MEMO_ONLY_VIOLATION',
  },
  {
    name: 'login challenge that carries a token transfer',
    expectation: login,
    build: () => tx(W, [loginMemo(), token.transferChecked(W, STRANGER, USDC, 1n)]),
    reason: 'MEMO_ONLY_VIOLATION',
  },
  {
    name: 'login challenge with a compute budget',
    expectation: login,
    build: () => tx(W, [...computeBudget(1, 1), loginMemo()]),
    reason: 'MEMO_ONLY_VIOLATION',
  },
  { name: 'login challenge with no memo at all', expectation: login, build: () => tx(W, []), reason: 'MEMO_ONLY_VIOLATION' },
  { name: 'login challenge co-signed by another key', expectation: login, build: () => tx(W, [loginMemo(), memo('x', other)]), reason: 'UNEXPECTED_SIGNER' },
  // Deposits: exactly the stated amount of the stated mint, to our own vault.
  { name: 'deposit paid by a stranger', expectation: deposit, build: () => tx(STRANGER, depositIxs(50_000_000n)), reason: 'FEE_PAYER_MISMATCH' },
  {
    name: 'deposit to a stranger instead of the vault',
    expectation: deposit,
    build: () => tx(W, [token.transferChecked(W, STRANGER, USDC, 50_000_000n)]),
    reason: 'TRANSFER_TO_STRANGER',
  },
  { name: 'deposit of one unit more than stated', expectation: deposit, build: () => tx(W, depositIxs(50_000_001n)), reason: 'AMOUNT_EXCEEDS_INTENT' },
  {
    name: 'deposit split in two transfers that add up to more',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), token.transferChecked(W, VAULT, USDC, 1_000n)]),
    reason: 'AMOUNT_EXCEEDS_INTENT',
  },
  { name: 'deposit of less than stated', expectation: deposit, build: () => tx(W, depositIxs(49_000_000n)), reason: 'AMOUNT_MISMATCH' },
  { name: 'deposit of another mint', expectation: deposit, build: () => tx(W, depositIxs(50_000_000n, JUP)), reason: 'MINT_MISMATCH' },
  {
    name: 'deposit with an extra SOL transfer to a stranger',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), system.transfer(W, STRANGER, 5_000n)]),
    reason: 'TRANSFER_TO_STRANGER',
  },
  {
    name: 'SOL deposit of more lamports than stated',
    expectation: solDeposit,
    build: () => tx(W, depositIxs(1_000_000_001n, SOL)),
    reason: 'AMOUNT_EXCEEDS_INTENT',
  },
  {
    name: 'deposit that also approves a delegate',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), token.approve(ata(W, USDC), STRANGER, W, 2n ** 64n - 1n)]),
    reason: 'DELEGATE_APPROVAL',
  },
  {
    name: 'deposit with a Token-2022 ApproveChecked',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), token.approveChecked(ata(W, USDC, ProgramId.token2022), USDC, STRANGER, W, 10n)]),
    reason: 'DELEGATE_APPROVAL',
  },
  {
    name: 'deposit that hands our token account to a stranger',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), token.setAuthority(ata(W, USDC), W, STRANGER)]),
    reason: 'AUTHORITY_CHANGE',
  },
  {
    name: 'deposit that closes our account to a stranger',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), token.close(ata(W, SOL), STRANGER, W)]),
    reason: 'CLOSE_TO_STRANGER',
  },
  {
    name: 'deposit that burns our tokens',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), token.burn(ata(W, JUP), JUP, W, 5n)]),
    reason: 'TOKEN_BURN',
  },
  {
    name: 'deposit that reassigns our wallet account',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), system.assign(W, STRANGER)]),
    reason: 'ACCOUNT_REASSIGN',
  },
  {
    name: 'deposit that allocates space in our wallet account',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), system.allocate(W, 1)]),
    reason: 'ACCOUNT_REASSIGN',
  },
  {
    name: 'deposit calling an unknown program',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), unknownProgram()]),
    reason: 'PROGRAM_NOT_ALLOWED',
  },
  {
    name: 'deposit calling Jupiter (only swaps may)',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), route()]),
    reason: 'PROGRAM_NOT_ALLOWED',
  },
  {
    name: "deposit that pays rent for a stranger's account",
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), createAta(W, STRANGER, JUP)]),
    reason: 'ATA_FOR_STRANGER',
  },
  {
    name: 'deposit co-signed by an unexpected key',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), memo('hi', other)]),
    reason: 'UNEXPECTED_SIGNER',
  },
  {
    name: 'deposit that mints tokens',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), token.mintTo(JUP, ata(W, JUP), W)]),
    reason: 'INSTRUCTION_NOT_ALLOWED',
  },
  {
    name: 'deposit that creates a system account',
    expectation: deposit,
    build: () => tx(W, [...depositIxs(50_000_000n), system.createAccount(W, W)]),
    reason: 'INSTRUCTION_NOT_ALLOWED',
  },
  // Lookup tables: what cannot be seen cannot be signed.
  {
    name: 'deposit whose destination hides in an unresolvable lookup table',
    expectation: deposit,
    build: () => tx(W, [token.transferCheckedTo(W, ata(STRANGER, USDC), USDC, 50_000_000n)], [hiddenStrangerAta]),
    reason: 'UNRESOLVED_LOOKUP_TABLE',
  },
  {
    name: 'deposit to a stranger hidden behind a resolved lookup table',
    expectation: deposit,
    build: () => tx(W, [token.transferCheckedTo(W, ata(STRANGER, USDC), USDC, 50_000_000n)], [hiddenStrangerAta]),
    options: { resolveLookupTable: tablesResolver([hiddenStrangerAta]) },
    reason: 'TRANSFER_TO_STRANGER',
  },
  {
    name: 'lookup table that is shorter than the transaction says',
    expectation: deposit,
    build: () => tx(W, [token.transferCheckedTo(W, ata(STRANGER, USDC), USDC, 50_000_000n)], [hiddenStrangerAta]),
    options: { resolveLookupTable: tablesResolver([hiddenStrangerAta], { length: 0 }) },
    reason: 'LOOKUP_TABLE_INDEX_OUT_OF_RANGE',
  },
  {
    name: 'lookup table fetch fails',
    expectation: deposit,
    build: () => tx(W, [token.transferCheckedTo(W, ata(STRANGER, USDC), USDC, 1n)], [hiddenStrangerAta]),
    options: { resolveLookupTable: () => Promise.reject(new Error('rpc down')) },
    reason: 'UNRESOLVED_LOOKUP_TABLE',
  },
  // Withdrawals: nothing leaves the wallet, and the vault's funds come to us.
  {
    name: 'withdrawal that also moves our tokens out',
    expectation: withdrawal,
    build: () => tx(W, [...withdrawalIxs(10n), token.transferChecked(W, STRANGER, USDC, 10n)]),
    reason: 'WITHDRAWAL_OUTFLOW',
  },
  {
    name: 'withdrawal that also sends our SOL out',
    expectation: withdrawal,
    build: () => tx(W, [...withdrawalIxs(10n), system.transfer(W, STRANGER, 10n)]),
    reason: 'WITHDRAWAL_OUTFLOW',
  },
  {
    name: 'withdrawal that moves tokens out with a plain Transfer',
    expectation: withdrawal,
    build: () => tx(W, [...withdrawalIxs(10n), token.transfer(ata(W, USDC), ata(STRANGER, USDC), W, 10n)]),
    reason: 'WITHDRAWAL_OUTFLOW',
  },
  {
    name: "withdrawal that sends the vault's funds to a stranger",
    expectation: withdrawal,
    build: () => tx(W, [token.transferChecked(VAULT, STRANGER, USDC, 10n)]),
    reason: 'TRANSFER_TO_STRANGER',
  },
  {
    name: 'withdrawal co-signed by a key other than our vault',
    expectation: withdrawal,
    build: () => tx(W, [token.transferChecked(other, W, USDC, 10n)]),
    reason: 'UNEXPECTED_SIGNER',
  },
  { name: 'withdrawal paid by the vault', expectation: withdrawal, build: () => tx(VAULT, withdrawalIxs(10n)), reason: 'FEE_PAYER_MISMATCH' },
  // Swaps: Jupiter only, bounded input, output to us.
  { name: 'swap of more than the intended input', expectation: swap, build: () => tx(W, swapIxs(100_000_001n)), reason: 'AMOUNT_EXCEEDS_INTENT' },
  {
    name: 'swap whose output goes to a stranger',
    expectation: swap,
    build: () => tx(W, [route({ userDestination: ata(STRANGER, USDC) })]),
    reason: 'SWAP_DESTINATION_NOT_OURS',
  },
  {
    name: 'swap that takes input from our USDC account',
    expectation: swap,
    build: () => tx(W, [route({ source: ata(W, USDC) })]),
    reason: 'SWAP_ACCOUNT_MISMATCH',
  },
  {
    name: 'swap through a Jupiter instruction that is not a swap',
    expectation: swap,
    build: () => tx(W, [new TransactionInstruction({ programId: JUP6, keys: [], data: Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]) })]),
    reason: 'INSTRUCTION_NOT_ALLOWED',
  },
  // Jupiter v6 by its IDL: every account that can receive funds, the exact data, the amounts it states.
  {
    name: 'route whose optional destinationTokenAccount pays a stranger',
    expectation: swap,
    build: () => tx(W, [route({ destination: ata(STRANGER, USDC) })]),
    reason: 'SWAP_DESTINATION_NOT_OURS',
  },
  {
    name: 'route with trailing bytes that would read as a larger amount from the end',
    expectation: swap,
    build: () => tx(W, [route({ inAmount: 1n, trailing: Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0]) })]),
    reason: 'ROUTE_DATA_MALFORMED',
  },
  {
    name: "route with a platform fee into a stranger's account that the answer did not declare",
    expectation: swap,
    build: () => tx(W, [route({ platformFeeBps: 50, platformFeeAccount: ata(STRANGER, USDC) })]),
    reason: 'PLATFORM_FEE_UNDECLARED',
  },
  {
    name: 'route with a platform fee above the declared one into a stranger account',
    expectation: { ...swap, feeBps: 20 },
    build: () => tx(W, [route({ platformFeeBps: 50, platformFeeAccount: ata(STRANGER, USDC) })]),
    reason: 'PLATFORM_FEE_EXCEEDS_DECLARED',
  },
  {
    name: 'route naming a stranger fee account while charging no fee',
    expectation: swap,
    build: () => tx(W, [route({ platformFeeBps: 0, platformFeeAccount: ata(STRANGER, USDC) })]),
    reason: 'PLATFORM_FEE_NOT_ALLOWED',
  },
  {
    name: 'route with a platform fee and no fee account, undeclared',
    expectation: swap,
    build: () => tx(W, [route({ platformFeeBps: 50 })]),
    reason: 'PLATFORM_FEE_UNDECLARED',
  },
  { name: 'route allowing more slippage than the cap', expectation: swap, build: () => tx(W, [route({ slippageBps: 5_000 })]), reason: 'SLIPPAGE_EXCEEDS_CAP' },
  {
    name: 'route quoting less output than the checked quote',
    expectation: swap,
    build: () => tx(W, [route({ quotedOutAmount: 999_999n })]),
    reason: 'QUOTED_OUT_BELOW_MINIMUM',
  },
  {
    name: 'route whose plan uses a venue newer than the decoder',
    expectation: swap,
    build: () => tx(W, [route({ steps: [{ variant: 250 }] })]),
    reason: 'ROUTE_PLAN_UNDECODABLE',
  },
  {
    name: 'route whose plan is truncated',
    expectation: swap,
    build: () => tx(W, [route({ steps: [{ variant: 17, fields: [] }] })]),
    reason: 'ROUTE_DATA_MALFORMED',
  },
  {
    name: 'ExactOut route where an ExactIn swap was asked',
    expectation: swap,
    build: () => tx(W, [route({ name: 'exact_out_route' })]),
    reason: 'SWAP_MODE_NOT_ALLOWED',
  },
  {
    name: 'token-ledger route whose input amount is not in the data',
    expectation: swap,
    build: () => tx(W, [route({ name: 'route_with_token_ledger' })]),
    reason: 'SWAP_MODE_NOT_ALLOWED',
  },
  {
    name: "route into another mint than the intent's",
    expectation: swap,
    build: () => tx(W, [route({ destinationMint: new PublicKey(JUP), userDestination: ata(W, JUP) })]),
    reason: 'MINT_MISMATCH',
  },
  { name: 'route authorised by another wallet', expectation: swap, build: () => tx(W, [route({ authority: other })]), reason: 'UNEXPECTED_SIGNER' },
  {
    name: "route whose destination is a stranger's account hidden behind a lookup table",
    expectation: swap,
    build: () => tx(W, [route({ destination: ata(STRANGER, USDC), venues: [keypair('pool-a').publicKey] })], [venueTable]),
    options: { resolveLookupTable: tablesResolver([venueTable]) },
    reason: 'SWAP_DESTINATION_NOT_OURS',
  },
  {
    name: 'route_v2 paying a stranger',
    expectation: swap,
    build: () =>
      tx(W, [
        routeV2Ix({
          authority: W,
          source: ata(W, SOL),
          userDestination: ata(STRANGER, USDC),
          destinationMint: new PublicKey(USDC),
          sourceMint: new PublicKey(SOL),
          inAmount: 1n,
          quotedOutAmount: 1_000_000n,
        }),
      ]),
    reason: 'SWAP_DESTINATION_NOT_OURS',
  },
  {
    name: 'route_v2 carrying a platform fee',
    expectation: swap,
    build: () =>
      tx(W, [
        routeV2Ix({
          authority: W,
          source: ata(W, SOL),
          userDestination: ata(W, USDC),
          destinationMint: new PublicKey(USDC),
          sourceMint: new PublicKey(SOL),
          inAmount: 1n,
          quotedOutAmount: 1_000_000n,
          platformFeeBps: 20,
        }),
      ]),
    reason: 'PLATFORM_FEE_UNDECLARED',
  },
  {
    name: 'shared-accounts route through a fake program authority',
    expectation: swap,
    build: () => tx(W, [shared({ programAuthority: other })]),
    reason: 'SWAP_ACCOUNT_MISMATCH',
  },
  {
    name: "shared-accounts route whose program destination is a stranger's account",
    expectation: swap,
    build: () => tx(W, [shared({ programDestination: ata(STRANGER, USDC) })]),
    reason: 'SWAP_DESTINATION_NOT_OURS',
  },
  {
    name: 'shared-accounts route delivering to a stranger',
    expectation: swap,
    build: () => tx(W, [shared({ destination: ata(STRANGER, USDC) })]),
    reason: 'SWAP_DESTINATION_NOT_OURS',
  },
  // Lookup tables gone bad.
  {
    name: 'lookup table that does not exist',
    expectation: swap,
    build: () => tx(W, [route({ venues: [keypair('pool-a').publicKey] })], [venueTable]),
    options: { resolveLookupTable: tablesResolver([venueTable], { missing: true }) },
    reason: 'LOOKUP_TABLE_MISSING',
  },
  {
    name: 'lookup table that is deactivated',
    expectation: swap,
    build: () => tx(W, [route({ venues: [keypair('pool-a').publicKey] })], [venueTable]),
    options: { resolveLookupTable: tablesResolver([venueTable], { deactivated: true }) },
    reason: 'LOOKUP_TABLE_DEACTIVATED',
  },
  {
    name: 'account named as a lookup table that is not one',
    expectation: swap,
    build: () => tx(W, [route({ venues: [keypair('pool-a').publicKey] })], [venueTable]),
    options: { resolveLookupTable: tablesResolver([venueTable], { invalid: true }) },
    reason: 'LOOKUP_TABLE_INVALID',
  },
  {
    name: 'lookup table shorter than the index the transaction reads',
    expectation: swap,
    build: () => tx(W, [route({ venues: [keypair('pool-b').publicKey] })], [venueTable]),
    options: { resolveLookupTable: tablesResolver([venueTable], { length: 1 }) },
    reason: 'LOOKUP_TABLE_INDEX_OUT_OF_RANGE',
  },
  // Payers and signers.
  {
    name: 'swap whose fee payer was swapped for a stranger (not a gasless answer)',
    expectation: swap,
    build: () => presign(tx(GAS.publicKey, swapIxs(1n)), [GAS]),
    reason: 'FEE_PAYER_MISMATCH',
  },
  {
    name: 'gasless swap paid by another payer than the answer named',
    expectation: { ...gasless, feePayer: other.toBase58() },
    build: () => gaslessTx(1n, []),
    reason: 'FEE_PAYER_MISMATCH',
  },
  {
    name: 'gasless swap whose payer signature does not verify',
    expectation: gasless,
    build: () => {
      const t = gaslessTx(1n);
      flip(t, GAS);
      return t;
    },
    reason: 'SIGNATURE_INVALID',
  },
  {
    name: 'gasless swap paid by another payer than the answer named',
    expectation: { ...gasless, feePayer: other.toBase58() },
    build: () => gaslessTx(1n),
    reason: 'FEE_PAYER_MISMATCH',
  },
  {
    name: 'gasless swap paying back more than the declared fees',
    expectation: gasless,
    build: () => gaslessTx(10_001n),
    reason: 'GASLESS_FEE_EXCEEDS_DECLARED',
  },
  {
    name: 'swap with an extra signer whose signature would come from elsewhere',
    expectation: swap,
    build: () => tx(W, [...swapIxs(1n), memo('x', other)]),
    reason: 'UNEXPECTED_SIGNER',
  },
  { name: 'RFQ fill paid by someone other than the maker the answer named', expectation: rfq, build: () => rfqTx(other), reason: 'RFQ_MAKER_MISMATCH' },
  { name: 'RFQ fill when the answer named no maker', expectation: swap, build: () => rfqTx(W), reason: 'PROGRAM_NOT_ALLOWED' },
  {
    name: 'swap with a tip to a stranger',
    expectation: swap,
    build: () => tx(W, [...swapIxs(1n), system.transfer(W, STRANGER, 1_000_000n)]),
    reason: 'TRANSFER_TO_STRANGER',
  },
  {
    name: 'swap with an outrageous priority fee',
    expectation: swap,
    build: () => tx(W, [...computeBudget(1_400_000, 1_000_000_000), route()]),
    reason: 'PRIORITY_FEE_EXCEEDS_CAP',
  },
  {
    name: 'swap claimed gasless but paid by a stranger who has not signed',
    expectation: { ...swap, gasless: true },
    build: () => tx(STRANGER, swapIxs(1n)),
    reason: 'FEE_PAYER_MISMATCH',
  },
  {
    name: "gasless swap that spends another taker's funds, not needing our signature",
    expectation: gasless,
    build: () => presign(tx(GAS.publicKey, [route({ authority: other })]), [GAS]),
    reason: 'WALLET_NOT_SIGNER',
  },
  { name: 'swap without any route', expectation: swap, build: () => tx(W, [...computeBudget(300_000, 1)]), reason: 'SWAP_ACCOUNT_MISMATCH' },
  {
    name: 'swap through a program that is not Jupiter',
    expectation: swap,
    build: () => tx(W, [...swapIxs(1n), unknownProgram()]),
    reason: 'PROGRAM_NOT_ALLOWED',
  },
  // Prediction exits: proceeds in, nothing out.
  {
    name: 'prediction sell that also sends USDC to a stranger',
    expectation: sell,
    build: () => presign(tx(GAS.publicKey, [saleIx(), token.transferChecked(W, STRANGER, USDC, 1n)]), [GAS, PROTOCOL]),
    reason: 'OUTFLOW_NOT_ALLOWED',
  },
  {
    name: 'prediction claim through an unconfigured program',
    expectation: claim,
    build: () => claimTx(),
    options: { predictionPrograms: [ProgramId.system.toBase58()] },
    reason: 'PROGRAM_NOT_ALLOWED',
  },
  {
    name: 'prediction claim that sends SOL out',
    expectation: claim,
    build: () => presign(tx(GAS.publicKey, [claimIxFor(), system.transfer(W, STRANGER, 1n)]), [GAS, PROTOCOL]),
    reason: 'OUTFLOW_NOT_ALLOWED',
  },
  // The prediction program's order, field by field.
  { name: 'prediction buy where a sell was asked', expectation: sell, build: () => saleTx({ isBuy: true }), reason: 'PREDICTION_BUY_NOT_ALLOWED' },
  {
    name: "prediction sale at a lower price floor than the strategy's",
    expectation: sell,
    build: () => saleTx({ priceBound: 399_999n }),
    reason: 'PREDICTION_PRICE_BELOW_FLOOR',
  },
  {
    name: 'prediction sale of more contracts than the position',
    expectation: sell,
    build: () => saleTx({ contracts: 5_000_001n }),
    reason: 'PREDICTION_CONTRACTS_EXCEED_POSITION',
  },
  { name: "prediction sale of another owner's position", expectation: sell, build: () => saleTx({ owner: other }), reason: 'WALLET_NOT_SIGNER' },
  {
    name: 'prediction sale of another position',
    expectation: sell,
    build: () => saleTx({ position: keypair('guard-position-2').publicKey }),
    reason: 'PREDICTION_POSITION_MISMATCH',
  },
  { name: 'prediction sale of the other side', expectation: sell, build: () => saleTx({ isYes: true }), reason: 'PREDICTION_SIDE_MISMATCH' },
  {
    name: 'prediction sale under another order id than the API answered',
    expectation: sell,
    build: () => saleTx({ externalOrderId: 'ext-2' }),
    reason: 'PREDICTION_ORDER_ID_MISMATCH',
  },
  {
    name: "prediction sale paying proceeds into a stranger's account",
    expectation: sell,
    build: () => saleTx({ funding: ata(STRANGER, USDC) }),
    reason: 'PREDICTION_FUNDS_NOT_OURS',
  },
  {
    name: 'prediction sale whose co-signer signature does not verify',
    expectation: sell,
    build: () => {
      const t = saleTx();
      flip(t, PROTOCOL);
      return t;
    },
    reason: 'SIGNATURE_INVALID',
  },
  { name: 'prediction sale whose co-signer has not signed', expectation: sell, build: () => saleTx({}, [GAS]), reason: 'UNEXPECTED_SIGNER' },
  { name: 'prediction sale whose payer has not signed', expectation: sell, build: () => saleTx({}, [PROTOCOL]), reason: 'FEE_PAYER_MISMATCH' },
  {
    name: 'prediction sale with an instruction of the program jupbot does not know',
    expectation: sell,
    build: () =>
      presign(tx(GAS.publicKey, [saleIx(), new TransactionInstruction({ programId: ProgramId.system, keys: [], data: Buffer.alloc(0) })]), [GAS, PROTOCOL]),
    reason: 'MALFORMED_TRANSACTION',
  },
  {
    name: 'prediction claim of another position',
    expectation: claim,
    build: () => claimTx({ position: keypair('guard-position-2').publicKey }),
    reason: 'PREDICTION_POSITION_MISMATCH',
  },
  { name: 'prediction order where a claim was asked', expectation: claim, build: () => saleTx(), reason: 'PREDICTION_LAYOUT_UNKNOWN' },
  {
    name: 'prediction claim paying out to a stranger',
    expectation: claim,
    build: () => claimTx({ funding: ata(STRANGER, USDC) }),
    reason: 'PREDICTION_FUNDS_NOT_OURS',
  },
  // Malformed.
  {
    name: 'token transfer with truncated data',
    expectation: deposit,
    build: () =>
      tx(W, [
        new TransactionInstruction({
          programId: ProgramId.token,
          keys: [{ pubkey: ata(W, USDC), isSigner: false, isWritable: true }],
          data: Buffer.from([3, 1]),
        }),
      ]),
    reason: 'MALFORMED_TRANSACTION',
  },
];

/** Damages one byte of the present signature of `signer`. */
function flip(t: VersionedTransaction, signer: Keypair): void {
  const slot = t.message.staticAccountKeys.findIndex((k) => k.equals(signer.publicKey));
  const sig = t.signatures[slot] as Uint8Array;
  sig[3] = (sig[3] ?? 0) ^ 1;
}

function shared(change: Partial<Parameters<typeof sharedRouteIx>[0]> = {}): TransactionInstruction {
  const authority = new PublicKey(programAuthority(3));
  return sharedRouteIx({
    id: 3,
    programAuthority: authority,
    authority: W,
    source: ata(W, SOL),
    programSource: ata(authority, SOL),
    programDestination: ata(authority, USDC),
    destination: ata(W, USDC),
    sourceMint: new PublicKey(SOL),
    destinationMint: new PublicKey(USDC),
    inAmount: 100_000_000n,
    quotedOutAmount: 1_000_000n,
    ...change,
  });
}

function saleIx(): TransactionInstruction {
  return orderIx({
    payer: GAS.publicKey,
    owner: W,
    protocol: PROTOCOL.publicKey,
    market,
    position,
    order: orderAccount,
    funding: ata(W, USDC),
    mint: new PublicKey(USDC),
    externalOrderId: 'ext-1',
    isYes: false,
    isBuy: false,
    contracts: 5_000_000n,
    priceBound: 400_000n,
  });
}

function claimIxFor(): TransactionInstruction {
  return claimIx({ payer: GAS.publicKey, owner: W, protocol: PROTOCOL.publicKey, market, position, funding: ata(W, USDC), mint: new PublicKey(USDC) });
}

describe('the guard refuses the attack corpus', () => {
  it('has at least 90 crafted refusals', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(90);
  });

  it.each(corpus.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const error = await checkTransaction(c.build(), c.expectation, { ...options, ...c.options }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GuardRefusal);
    const refusal = error as GuardRefusal;
    expect(refusal.code).toBe('GUARD_REFUSED');
    expect(refusal.reason).toBe(c.reason);
    expect(refusal.details['reason']).toBe(c.reason);
  });
});

describe('the guard accepts the legitimate shapes', () => {
  it('a memo-only login challenge', async () => {
    await expect(checkTransaction(tx(W, [loginMemo()]), login, options)).resolves.toMatchObject({ kind: 'login-challenge', outflows: [] });
  });

  it('a USDC and a SOL deposit of exactly the stated amount to our vault', async () => {
    const usdc = await checkTransaction(tx(W, depositIxs(50_000_000n)), deposit, options);
    expect(usdc.outflows).toEqual([{ mint: USDC, amount: 50_000_000n, to: ata(VAULT, USDC).toBase58() }]);
    const sol = await checkTransaction(tx(W, depositIxs(1_000_000_000n, SOL)), solDeposit, options);
    expect(sol.outflows).toEqual([{ mint: SOL, amount: 1_000_000_000n, to: vault }]);
  });

  it('a deposit whose accounts come through a resolved lookup table', async () => {
    const table = lookupTable('vault', [ata(VAULT, USDC)]);
    const summary = await checkTransaction(tx(W, [token.transferChecked(W, VAULT, USDC, 50_000_000n)], [table]), deposit, {
      ...options,
      resolveLookupTable: tablesResolver([table]),
    });
    expect(summary.outflows[0]?.amount).toBe(50_000_000n);
    expect(summary.lookupTables).toEqual([table.key.toBase58()]);
  });

  it('a Token-2022 deposit, and a SOL deposit that wraps first as the real API may', async () => {
    const t22 = await checkTransaction(
      tx(W, [...computeBudget(60_000, 1_000), ...transferInstructions(W, W, VAULT, JUP, 7n, 6, ProgramId.token2022)]),
      { kind: 'vault-deposit', mint: JUP, amount: 7n, vault },
      options,
    );
    expect(t22.outflows).toEqual([{ mint: JUP, amount: 7n, to: ata(VAULT, JUP, ProgramId.token2022).toBase58() }]);
    const wsol = ata(W, SOL);
    const syncNative = new TransactionInstruction({
      programId: ProgramId.token,
      keys: [{ pubkey: wsol, isSigner: false, isWritable: true }],
      data: Buffer.from([17]),
    });
    const wrapped = tx(W, [
      createAta(W, W, SOL),
      system.transfer(W, wsol, 1_000_000_000n),
      syncNative,
      createAta(W, VAULT, SOL),
      token.transferChecked(W, VAULT, SOL, 1_000_000_000n),
      token.close(wsol, W, W),
    ]);
    await expect(checkTransaction(wrapped, solDeposit, options)).resolves.toMatchObject({ outflows: [{ mint: SOL, amount: 1_000_000_000n }] });
  });

  it('a legacy (pre-v0) message', async () => {
    const legacy = new VersionedTransaction(
      new TransactionMessage({ payerKey: W, recentBlockhash: BLOCKHASH, instructions: depositIxs(50_000_000n) }).compileToLegacyMessage(),
    );
    await expect(checkTransaction(legacy, deposit, options)).resolves.toMatchObject({ kind: 'vault-deposit' });
  });

  it('a withdrawal from our vault, co-signed by the vault', async () => {
    await expect(checkTransaction(tx(W, withdrawalIxs(10n)), withdrawal, options)).resolves.toMatchObject({ signers: [wallet, vault], outflows: [] });
    await expect(checkTransaction(tx(W, withdrawalIxs(10n, SOL)), withdrawal, options)).resolves.toMatchObject({ outflows: [] });
  });

  it('a swap at the bound, a route_v2 and a shared-accounts route', async () => {
    await expect(checkTransaction(tx(W, swapIxs(100_000_000n)), swap, options)).resolves.toMatchObject({
      outflows: [{ mint: SOL, amount: 100_000_000n }],
      solBudgetLamports: 5_000n + 1_500n,
    });
    const v2 = routeV2Ix({
      authority: W,
      source: ata(W, SOL),
      userDestination: ata(W, USDC),
      destinationMint: new PublicKey(USDC),
      sourceMint: new PublicKey(SOL),
      inAmount: 100_000_000n,
      quotedOutAmount: 1_000_000n,
    });
    const summaryV2 = await checkTransaction(tx(W, [v2]), swap, options);
    expect(summaryV2.swaps.map((x) => [x.name, x.inAmount, x.quotedOutAmount, x.slippageBps])).toEqual([['route_v2', 100_000_000n, 1_000_000n, 50]]);
    const summaryShared = await checkTransaction(tx(W, [shared()]), swap, options);
    expect(summaryShared.swaps[0]?.name).toBe('shared_accounts_route');
  });

  it('a route whose venues sit behind a lookup table, with our own fee account', async () => {
    const fee = ata(W, USDC);
    const summary = await checkTransaction(
      tx(W, [route({ venues: [keypair('pool-a').publicKey, keypair('pool-b').publicKey], platformFeeBps: 20, platformFeeAccount: fee })], [venueTable]),
      swap,
      {
        ...options,
        resolveLookupTable: tablesResolver([venueTable]),
        platformFeeAccounts: [fee.toBase58()],
      },
    );
    expect(summary.lookupTables).toEqual([venueTable.key.toBase58()]);
    expect(summary.swaps[0]?.platformFeeBps).toBe(20);
  });

  it('a gasless swap paid and signed by Jupiter, with the declared fee paid back', async () => {
    const summary = await checkTransaction(gaslessTx(10_000n), gasless, options);
    expect(summary.feePayer).toBe(GAS.publicKey.toBase58());
    expect(summary.signatures).toEqual([
      { address: GAS.publicKey.toBase58(), state: 'present' },
      { address: wallet, state: 'ours' },
    ]);
    // We pay no network fee, only the declared refund.
    expect(summary.solBudgetLamports).toBe(10_000n);
  });

  it('an RFQ fill whose maker signs after us', async () => {
    const summary = await checkTransaction(rfqTx(MAKER.publicKey), rfq, options);
    expect(summary.signatures).toEqual([
      { address: MAKER.publicKey.toBase58(), state: 'empty' },
      { address: wallet, state: 'ours' },
    ]);
  });

  it('a prediction sale and a claim, paid by Jupiter and co-signed by its protocol signer', async () => {
    const sale = await checkTransaction(saleTx(), sell, options);
    expect(sale.predictions).toMatchObject([{ type: 'order', isBuy: false, contracts: 5_000_000n, priceBoundMicroUsd: 400_000n, externalOrderId: 'ext-1' }]);
    expect(sale.signatures.map((x) => x.state)).toEqual(['present', 'ours', 'present']);
    const claimed = await checkTransaction(claimTx(), claim, options);
    expect(claimed.predictions).toMatchObject([{ type: 'claim', position: position.toBase58() }]);
  });
});
