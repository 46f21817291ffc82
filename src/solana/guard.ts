/**
 * The transaction guard's static half: before any signature, a transaction is decoded (lookup
 * tables resolved) and checked against the intent that asked for it. It must be paid by our wallet
 * or by a payer the intent allows, signed by nobody unexpected (every signature already present
 * valid), call only the programs allowed for that kind of intent, and move out of the wallet only
 * what the intent states, to where it states. Jupiter's swap and prediction instructions are
 * decoded by their layouts and checked field by field. Anything else is a {@link GuardRefusal} with a
 * stable reason. The other half, proving the effects on our accounts by simulation, is effects.ts.
 */
import type { VersionedTransaction } from '@solana/web3.js';
import { decodeJupiterSwap, type JupiterSwapInstruction, SwapDecodeError } from './decode/jupiterSwapInstruction.js';
import { SwapVariantTable } from './decode/swapVariantTable.js';
import type { PredictionInstruction } from './decode/predictionOrder.js';
import type { Expectation, ExpectationKind, SwapExpectation } from './expectation.js';
import { GuardRefusal, type RefusalReason } from './guardRefusal.js';
import { decodeEffect, type Effect, isMemoProgram } from './instructionEffects.js';
import type { LookupTableState } from './lookupTables.js';
import { checkPredictionInstruction, decodePrediction } from './predictionRules.js';
import {
  ASSOCIATED_TOKEN_PROGRAM,
  associatedTokenAccount,
  associatedTokenAccounts,
  COMPUTE_BUDGET_PROGRAM,
  JUPITER_AGGREGATOR_V6,
  JUPITER_ORDER_ENGINE,
  JUPITER_PREDICTION_PROGRAM,
  MEMO_PROGRAM,
  MEMO_V1_PROGRAM,
  SOL_MINT,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from './programIds.js';
import { type LookupTableResolver, type ResolvedInstruction, resolveTransaction } from './resolveAccounts.js';
import { checkSigners, type SignerFacts } from './signatureRules.js';
import { checkInnerJupiterSwap, checkJupiterSwap } from './swapRules.js';

export interface GuardOptions {
  /** Our wallet's address. */
  readonly wallet: string;
  /** Resolves address lookup tables (through the RPC, or a fixed set offline). Without it, a transaction that uses one is refused. */
  readonly resolveLookupTable?: LookupTableResolver | undefined;
  /** Programs a swap may call besides the base set. @default [Jupiter Aggregator v6] */
  readonly swapPrograms?: readonly string[] | undefined;
  /** Jupiter's prediction program(s). @default [3ZZuTbwC6aJbvteyVxXUS7gtFYdf7AuXeitx6VyvjvUp] */
  readonly predictionPrograms?: readonly string[] | undefined;
  /** Highest priority fee (compute units × price) the wallet may pay. @default 10_000_000 lamports (0.01 SOL) */
  readonly maxPriorityFeeLamports?: bigint | undefined;
  /** Platform-fee token accounts of ours (a referral fee paid to us). */
  readonly platformFeeAccounts?: readonly string[] | undefined;
  /** The highest fee Jupiter may charge inside a route, whatever the answer declares. @default 100 bps */
  readonly maxFeeBps?: number | undefined;
  /** The venues route plans are walked with, and how to learn more. @default the bundled table, learning nothing */
  readonly venues?: VenueSource | undefined;
}

/** The venue table in use, and a way to learn an index it lacks (from the program's on-chain IDL). */
export interface VenueSource {
  table(): SwapVariantTable;
  /** Tries to learn `variant`; resolves with the table to use now (the same one when nothing was learned). */
  learn(variant: number): Promise<SwapVariantTable>;
}

export interface Outflow {
  readonly mint: string;
  readonly amount: bigint;
  readonly to: string;
}

/** What an accepted transaction does, for the audit log (and for the effects check that follows). */
export interface GuardSummary {
  readonly kind: ExpectationKind;
  readonly feePayer: string;
  readonly signers: readonly string[];
  readonly signatures: readonly SignerFacts[];
  readonly programs: readonly string[];
  readonly lookupTables: readonly string[];
  /** What leaves the wallet to someone else, by the decoded instructions (swap input via Jupiter included). */
  readonly outflows: readonly Outflow[];
  readonly priorityFeeLamports: bigint;
  /** Most lamports the wallet may lose to fees, rent and declared fee refunds: the effects check's SOL budget. */
  readonly solBudgetLamports: bigint;
  /** Every account the transaction touches, lookup tables resolved. */
  readonly accounts: readonly string[];
  /** Those it may write. */
  readonly writableAccounts: readonly string[];
  readonly swaps: readonly JupiterSwapInstruction[];
  readonly predictions: readonly PredictionInstruction[];
}

const BASE_PROGRAMS = [SYSTEM_PROGRAM, TOKEN_PROGRAM, TOKEN_2022_PROGRAM, ASSOCIATED_TOKEN_PROGRAM, COMPUTE_BUDGET_PROGRAM, MEMO_PROGRAM, MEMO_V1_PROGRAM].map(
  (p) => p.toBase58(),
);
const JUPITER = JUPITER_AGGREGATOR_V6.toBase58();
const TOKEN_PROGRAMS = new Set([TOKEN_PROGRAM.toBase58(), TOKEN_2022_PROGRAM.toBase58()]);
const ORDER_ENGINE = JUPITER_ORDER_ENGINE.toBase58();
const DEFAULT_MAX_PRIORITY_FEE = 10_000_000n;
/** The runtime's default compute limit per instruction and per transaction. */
const DEFAULT_UNITS_PER_IX = 200_000;
const MAX_UNITS = 1_400_000;
const SIGNATURE_FEE_LAMPORTS = 5_000n;
/** Rent of a token account (165 bytes), which whoever creates it pays. */
export const TOKEN_ACCOUNT_RENT_LAMPORTS = 2_039_280n;

const predictionKinds = new Set<ExpectationKind>(['prediction-buy', 'prediction-sell', 'prediction-partial-sell', 'prediction-claim']);

function allowedPrograms(expectation: Expectation, options: GuardOptions): Set<string> {
  const prediction = options.predictionPrograms ?? [JUPITER_PREDICTION_PROGRAM];
  switch (expectation.kind) {
    case 'login-challenge':
      return new Set([MEMO_PROGRAM.toBase58(), MEMO_V1_PROGRAM.toBase58()]);
    case 'swap':
      return new Set([...BASE_PROGRAMS, ...(options.swapPrograms ?? [JUPITER]), ...(expectation.rfqMaker === undefined ? [] : [ORDER_ENGINE])]);
    case 'vault-deposit':
    case 'vault-withdrawal':
      return new Set(BASE_PROGRAMS);
    default:
      // Prediction orders may swap into the provider's dollar token through Aggregator v6 first.
      return new Set([...BASE_PROGRAMS, ...prediction, JUPITER]);
  }
}

/** The reason for money leaving the wallet where the intent allows none (or not there). */
function outflowReason(kind: ExpectationKind): RefusalReason {
  if (kind === 'vault-withdrawal') return 'WITHDRAWAL_OUTFLOW';
  if (kind === 'swap' || kind === 'vault-deposit') return 'TRANSFER_TO_STRANGER';
  return 'OUTFLOW_NOT_ALLOWED';
}

/** Checks `tx` against `expectation`; resolves with a summary, or rejects with a {@link GuardRefusal}. */
export async function checkTransaction(tx: VersionedTransaction, expectation: Expectation, options: GuardOptions): Promise<GuardSummary> {
  const wallet = options.wallet;
  const kind = expectation.kind;
  const resolved = await resolveTransaction(tx, options.resolveLookupTable);

  const venues = await venueTableFor(resolved.instructions, options.venues);
  const programs = allowedPrograms(expectation, options);
  const predictionPrograms = new Set(options.predictionPrograms ?? [JUPITER_PREDICTION_PROGRAM]);
  for (const ix of resolved.instructions) {
    if (kind === 'login-challenge' && !isMemoProgram(ix.program)) {
      throw new GuardRefusal('MEMO_ONLY_VIOLATION', `a login challenge must be memo-only; instruction ${ix.index} calls ${ix.program}`, {
        instruction: ix.index,
        program: ix.program,
      });
    }
    if (!programs.has(ix.program)) {
      throw new GuardRefusal('PROGRAM_NOT_ALLOWED', `program ${ix.program} is not allowed for a ${kind}`, { instruction: ix.index, program: ix.program, kind });
    }
  }
  if (kind === 'login-challenge' && resolved.instructions.length === 0)
    throw new GuardRefusal('MEMO_ONLY_VIOLATION', 'a login challenge must carry its memo', {});

  // The prediction program names its protocol co-signer; only that signer may have signed already.
  const predictionIxs = predictionKinds.has(kind) ? resolved.instructions.filter((ix) => predictionPrograms.has(ix.program)) : [];
  const coSigners = predictionIxs.map((ix) => decodePrediction(ix).protocol);
  const signatures = checkSigners(tx, resolved, expectation, { wallet, coSigners });

  const vault = expectation.kind === 'vault-deposit' || expectation.kind === 'vault-withdrawal' ? expectation.vault : null;
  const walletWsol = associatedTokenAccount(wallet, SOL_MINT, TOKEN_PROGRAM);
  const ownAccounts = (mint: string | null): string[] => [wallet, ...(mint === null ? [walletWsol] : associatedTokenAccounts(wallet, mint))];
  const knownMints = mintsOf(expectation);
  const mintOfSource = (owner: string, source: string): string | null => knownMints.find((m) => associatedTokenAccounts(owner, m).includes(source)) ?? null;
  const feePayer = resolved.feePayer;
  const declaredFee = expectation.kind === 'swap' ? (expectation.declaredFeeLamports ?? 0n) : 0n;

  const outflows: Outflow[] = [];
  const swaps: JupiterSwapInstruction[] = [];
  const predictions: PredictionInstruction[] = [];
  let units: number | null = null;
  let microLamports = 0n;
  let swapIn = 0n;
  let feeRefund = 0n;
  let rentWePay = 0n;
  let rfqFills = 0;
  const rfqFees = new Map<string, bigint>();
  for (const ix of resolved.instructions) {
    const refuse = (reason: RefusalReason, message: string, details: Record<string, unknown> = {}): never => {
      throw new GuardRefusal(reason, `instruction ${ix.index}: ${message}`, { instruction: ix.index, program: ix.program, kind, ...details });
    };
    const effect: Effect = decodeEffect(ix, wallet);
    switch (effect.type) {
      case 'sol-transfer': {
        if (effect.from === wallet) {
          // Into our own wrapped-SOL account: still ours (wrapping before a swap or deposit).
          if (effect.to === wallet || effect.to === walletWsol) break;
          if (expectation.kind === 'vault-deposit' && effect.to === vault) {
            if (expectation.mint !== SOL_MINT) refuse('MINT_MISMATCH', `sends SOL to the vault, but the deposit is of ${expectation.mint}`, { mint: SOL_MINT });
            outflows.push({ mint: SOL_MINT, amount: effect.lamports, to: effect.to });
            break;
          }
          // An RFQ fill takes Jupiter's fee from the taker in SOL, into a wrapped-SOL fee account it syncs next.
          if (
            expectation.kind === 'swap' &&
            expectation.rfqMaker !== undefined &&
            expectation.outputMint === SOL_MINT &&
            syncsNext(resolved.instructions, ix.index, effect.to)
          ) {
            rfqFees.set(effect.to, (rfqFees.get(effect.to) ?? 0n) + effect.lamports);
            outflows.push({ mint: SOL_MINT, amount: effect.lamports, to: effect.to });
            break;
          }
          // A gasless payer takes its fees back in SOL, up to what the answer declared.
          if (feePayer !== wallet && effect.to === feePayer && expectation.kind === 'swap') {
            feeRefund += effect.lamports;
            if (feeRefund > declaredFee) {
              refuse('GASLESS_FEE_EXCEEDS_DECLARED', `pays the fee payer ${feeRefund} lamports back, more than the ${declaredFee} the answer declared`, {
                lamports: feeRefund.toString(),
                declared: declaredFee.toString(),
              });
            }
            outflows.push({ mint: SOL_MINT, amount: effect.lamports, to: effect.to });
            break;
          }
          refuse(outflowReason(kind), `sends ${effect.lamports} lamports from our wallet to ${effect.to}`, {
            to: effect.to,
            lamports: effect.lamports.toString(),
          });
        }
        // The vault's funds are ours too: a withdrawal must bring them to us.
        if (vault !== null && effect.from === vault && !ownAccounts(SOL_MINT).includes(effect.to)) {
          refuse('TRANSFER_TO_STRANGER', `sends the vault's SOL to ${effect.to}`, { to: effect.to });
        }
        break;
      }
      case 'token-transfer': {
        if (effect.authority === wallet) {
          const mint = effect.mint ?? mintOfSource(wallet, effect.source);
          if (mint !== null && ownAccounts(mint).includes(effect.dest)) break;
          if (expectation.kind === 'vault-deposit') {
            if (mint !== expectation.mint)
              refuse('MINT_MISMATCH', `transfers ${mint ?? 'an unknown mint'}, but the deposit is of ${expectation.mint}`, { mint });
            if (effect.dest !== associatedTokenAccount(expectation.vault, expectation.mint, ixTokenProgram(effect.tokenProgram))) {
              refuse('TRANSFER_TO_STRANGER', `transfers to ${effect.dest}, not our vault's token account`, { to: effect.dest });
            }
            outflows.push({ mint: expectation.mint, amount: effect.amount, to: effect.dest });
            break;
          }
          refuse(outflowReason(kind), `transfers ${effect.amount} of ${mint ?? 'a token'} from our account to ${effect.dest}`, {
            to: effect.dest,
            amount: effect.amount.toString(),
            mint,
          });
        }
        if (vault !== null && effect.authority === vault) {
          const mint = effect.mint ?? mintOfSource(vault, effect.source);
          if (mint === null || !ownAccounts(mint).includes(effect.dest))
            refuse('TRANSFER_TO_STRANGER', `sends the vault's tokens to ${effect.dest}`, { to: effect.dest, mint });
        }
        break;
      }
      case 'ata-create': {
        // We pay its rent: only for our own accounts, or our vault's when depositing.
        const owners = [wallet, ...(expectation.kind === 'vault-deposit' ? [expectation.vault] : [])];
        if (effect.payer === wallet && !owners.includes(effect.owner))
          refuse('ATA_FOR_STRANGER', `creates a token account for ${effect.owner} at our expense`, { owner: effect.owner });
        if (effect.payer === wallet) rentWePay += TOKEN_ACCOUNT_RENT_LAMPORTS;
        break;
      }
      case 'close-account': {
        const ours = [wallet, ...(expectation.kind === 'vault-withdrawal' ? [expectation.vault] : [])];
        if (ours.includes(effect.owner) && effect.dest !== wallet)
          refuse('CLOSE_TO_STRANGER', `closes ${effect.account} and sends its lamports to ${effect.dest}`, { to: effect.dest });
        break;
      }
      case 'compute-unit-limit':
        units = effect.units;
        break;
      case 'compute-unit-price':
        microLamports = effect.microLamports;
        break;
      case 'memo':
      case 'harmless':
        break;
      case 'opaque': {
        if (ix.program === JUPITER) {
          if (expectation.kind === 'swap') {
            const swap = checkJupiterSwap(ix, expectation, { wallet, platformFeeAccounts: options.platformFeeAccounts, maxFeeBps: options.maxFeeBps, venues });
            swaps.push(swap);
            swapIn += swap.inAmount ?? 0n;
            outflows.push({ mint: expectation.inputMint, amount: swap.inAmount ?? 0n, to: ix.program });
          } else {
            swaps.push(checkInnerJupiterSwap(ix, wallet, venues));
          }
          break;
        }
        if (ix.program === ORDER_ENGINE && expectation.kind === 'swap') {
          // An RFQ fill: the maker the answer named must take part; its amounts are proven by simulation.
          if (!ix.accounts.some((a) => a.address === expectation.rfqMaker))
            refuse('RFQ_MAKER_MISMATCH', `the fill does not involve the maker ${expectation.rfqMaker ?? '(none)'} the answer named`);
          rfqFills += 1;
          break;
        }
        if (predictionPrograms.has(ix.program)) {
          predictions.push(checkPredictionInstruction(ix, expectation, wallet));
          break;
        }
        refuse('INSTRUCTION_NOT_ALLOWED', `calls ${ix.program}, whose instructions jupbot cannot read`);
        break;
      }
    }
  }

  const nonBudget = resolved.instructions.filter((ix) => ix.program !== COMPUTE_BUDGET_PROGRAM.toBase58()).length;
  const budgetUnits = BigInt(units ?? Math.min(MAX_UNITS, DEFAULT_UNITS_PER_IX * nonBudget));
  const priorityFeeLamports = (budgetUnits * microLamports + 999_999n) / 1_000_000n;
  const cap = options.maxPriorityFeeLamports ?? DEFAULT_MAX_PRIORITY_FEE;
  const wePay = feePayer === wallet;
  if (wePay && priorityFeeLamports > cap) {
    throw new GuardRefusal('PRIORITY_FEE_EXCEEDS_CAP', `priority fee ${priorityFeeLamports} lamports exceeds the cap of ${cap}`, {
      priorityFeeLamports: priorityFeeLamports.toString(),
      cap: cap.toString(),
    });
  }

  const rfqFee = [...rfqFees.values()].reduce((a, b) => a + b, 0n);
  if (expectation.kind === 'swap' && rfqFees.size > 0) checkRfqFee(rfqFees, expectation, rfqFills);
  if (expectation.kind === 'swap') {
    if (swaps.length === 0 && rfqFills === 0)
      throw new GuardRefusal('SWAP_ACCOUNT_MISMATCH', 'a swap without a Jupiter route or RFQ fill instruction', { kind });
    if (swapIn > expectation.maxInAmount) {
      throw new GuardRefusal('AMOUNT_EXCEEDS_INTENT', `swaps ${swapIn} of ${expectation.inputMint}, more than the intended ${expectation.maxInAmount}`, {
        kind,
        amount: swapIn.toString(),
        max: expectation.maxInAmount.toString(),
      });
    }
  }
  if (expectation.kind === 'vault-deposit') {
    const total = outflows.reduce((sum, o) => sum + o.amount, 0n);
    if (total !== expectation.amount) {
      const reason = total > expectation.amount ? 'AMOUNT_EXCEEDS_INTENT' : 'AMOUNT_MISMATCH';
      throw new GuardRefusal(reason, `deposits ${total} of ${expectation.mint}, the intent states ${expectation.amount}`, {
        kind,
        amount: total.toString(),
        expected: expectation.amount.toString(),
      });
    }
  }
  if (
    (expectation.kind === 'prediction-sell' || expectation.kind === 'prediction-partial-sell' || expectation.kind === 'prediction-claim') &&
    predictions.length !== 1
  ) {
    throw new GuardRefusal('PREDICTION_LAYOUT_UNKNOWN', `a ${kind} must carry exactly one prediction instruction; this one carries ${predictions.length}`, {
      kind,
      count: predictions.length,
    });
  }

  const signatureFees = wePay ? SIGNATURE_FEE_LAMPORTS * BigInt(resolved.signers.length) + priorityFeeLamports : 0n;
  return {
    kind,
    feePayer,
    signers: resolved.signers,
    signatures,
    programs: [...new Set(resolved.instructions.map((ix) => ix.program))],
    lookupTables: resolved.lookupTables.map((t: LookupTableState) => t.address),
    outflows,
    priorityFeeLamports,
    solBudgetLamports: signatureFees + rentWePay + feeRefund + rfqFee,
    accounts: resolved.accounts.map((a) => a.address),
    writableAccounts: [...new Set(resolved.accounts.filter((a) => a.writable).map((a) => a.address))],
    swaps,
    predictions,
  };
}

/**
 * The venue table for this transaction: the current one, or, when a Jupiter route names a venue it
 * does not describe, whatever learning that venue gives (the program's on-chain IDL, read at most so
 * often). Nothing here refuses: the route's own check does, with the table chosen.
 */
async function venueTableFor(instructions: readonly ResolvedInstruction[], source: VenueSource | undefined): Promise<SwapVariantTable> {
  let table = source?.table() ?? SwapVariantTable.bundled();
  if (!source) return table;
  for (const ix of instructions) {
    if (ix.program !== JUPITER) continue;
    let unknown: number | null = null;
    try {
      unknown =
        decodeJupiterSwap(
          ix.program,
          ix.accounts.map((a) => a.address),
          ix.data,
          table,
        ).unknownVenue?.variant ?? null;
    } catch (error) {
      if (error instanceof SwapDecodeError && typeof error.details['variant'] === 'number') unknown = error.details['variant'];
    }
    if (unknown !== null) table = await source.learn(unknown);
  }
  return table;
}

/** True when the instruction after `index` is SPL Token's SyncNative on `account`. */
function syncsNext(instructions: readonly ResolvedInstruction[], index: number, account: string): boolean {
  const next = instructions.find((ix) => ix.index === index + 1);
  return next !== undefined && TOKEN_PROGRAMS.has(next.program) && next.data.byteLength === 1 && next.data[0] === 17 && next.accounts[0]?.address === account;
}

/**
 * An RFQ fill's fee transfer: one place only, and at most the answer's `feeBps` of the output. The fee
 * is taken on the output before it (4,597 lamports on a net 4,592,968 at 10 bps), so the bound is
 * fee × 10 000 ≤ (output + fee) × feeBps.
 */
function checkRfqFee(fees: ReadonlyMap<string, bigint>, expectation: SwapExpectation, fills: number): void {
  const total = [...fees.values()].reduce((a, b) => a + b, 0n);
  const out = expectation.quotedOutAmount ?? expectation.minOutAmount;
  const bps = BigInt(expectation.feeBps ?? 0);
  if (fills === 0 || fees.size > 1 || total * 10_000n > (out + total) * bps) {
    throw new GuardRefusal(
      'RFQ_FEE_EXCEEDS_DECLARED',
      fees.size > 1
        ? `an RFQ fill pays its fee to ${fees.size} places: ${[...fees.keys()].join(', ')}`
        : `an RFQ fill pays ${total} lamports of fee, more than the ${bps} bps of its ${out} lamports output the answer declared`,
      { lamports: total.toString(), feeBps: Number(bps), to: [...fees.keys()], output: out.toString() },
    );
  }
}

function ixTokenProgram(program: string): typeof TOKEN_PROGRAM {
  return program === TOKEN_2022_PROGRAM.toBase58() ? TOKEN_2022_PROGRAM : TOKEN_PROGRAM;
}

function mintsOf(expectation: Expectation): string[] {
  switch (expectation.kind) {
    case 'swap':
      return [expectation.inputMint, expectation.outputMint, SOL_MINT];
    case 'vault-deposit':
      return [expectation.mint, SOL_MINT];
    case 'prediction-buy':
      return [expectation.mint, SOL_MINT];
    default:
      return [SOL_MINT];
  }
}
