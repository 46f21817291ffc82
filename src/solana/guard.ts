/**
 * The transaction guard (house rule 5): before any signature, a transaction is decoded and checked
 * against the intent that asked for it. It must be paid by the expected fee payer, signed by our
 * wallet and by nobody unexpected, call only the programs allowed for that kind of intent, and move
 * out of the wallet only what the intent states, to where it states. Anything else is a
 * {@link GuardRefusal} with a stable reason. What the guard cannot see into (Jupiter's own programs)
 * is constrained from outside and documented in docs/security.md.
 */
import type { VersionedTransaction } from '@solana/web3.js';
import { decodeEffect, type Effect, isMemoProgram } from './instructionEffects.js';
import type { Expectation, ExpectationKind } from './expectation.js';
import { GuardRefusal, type RefusalReason } from './guardRefusal.js';
import {
  ASSOCIATED_TOKEN_PROGRAM,
  associatedTokenAccount,
  associatedTokenAccounts,
  COMPUTE_BUDGET_PROGRAM,
  JUPITER_AGGREGATOR_V6,
  JUPITER_GAS_WALLET,
  MEMO_PROGRAM,
  MEMO_V1_PROGRAM,
  SOL_MINT,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
} from './programIds.js';
import { type LookupTableResolver, resolveTransaction } from './resolveAccounts.js';
import { jupiterRouteFacts } from './jupiterRoute.js';

export interface GuardOptions {
  /** Our wallet's address. */
  readonly wallet: string;
  /** Resolves address lookup tables (the RPC adapter). Without it, a transaction that uses one is refused. */
  readonly resolveLookupTable?: LookupTableResolver | undefined;
  /** Programs a swap may call besides the base set. @default [Jupiter Aggregator v6] */
  readonly swapPrograms?: readonly string[] | undefined;
  /** Jupiter's prediction program(s): not in the reference, so configured. @default [] (prediction refused) */
  readonly predictionPrograms?: readonly string[] | undefined;
  /** Highest priority fee (compute units × price) the wallet may pay. @default 10_000_000 lamports (0.01 SOL) */
  readonly maxPriorityFeeLamports?: bigint | undefined;
}

export interface Outflow {
  readonly mint: string;
  readonly amount: bigint;
  readonly to: string;
}

/** What an accepted transaction does, for the audit log. */
export interface GuardSummary {
  readonly kind: ExpectationKind;
  readonly feePayer: string;
  readonly signers: readonly string[];
  readonly programs: readonly string[];
  /** What leaves the wallet to someone else, by the decoded instructions (swap input via Jupiter included). */
  readonly outflows: readonly Outflow[];
  readonly priorityFeeLamports: bigint;
}

const BASE_PROGRAMS = [SYSTEM_PROGRAM, TOKEN_PROGRAM, TOKEN_2022_PROGRAM, ASSOCIATED_TOKEN_PROGRAM, COMPUTE_BUDGET_PROGRAM, MEMO_PROGRAM, MEMO_V1_PROGRAM].map((p) =>
  p.toBase58(),
);
const DEFAULT_MAX_PRIORITY_FEE = 10_000_000n;
/** The runtime's default compute limit per instruction and per transaction. */
const DEFAULT_UNITS_PER_IX = 200_000;
const MAX_UNITS = 1_400_000;

function allowedPrograms(kind: ExpectationKind, options: GuardOptions): Set<string> {
  switch (kind) {
    case 'login-challenge':
      return new Set([MEMO_PROGRAM.toBase58(), MEMO_V1_PROGRAM.toBase58()]);
    case 'swap':
      return new Set([...BASE_PROGRAMS, ...(options.swapPrograms ?? [JUPITER_AGGREGATOR_V6.toBase58()])]);
    case 'vault-deposit':
    case 'vault-withdrawal':
      return new Set(BASE_PROGRAMS);
    default:
      return new Set([...BASE_PROGRAMS, ...(options.predictionPrograms ?? [])]);
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

  const gasless = expectation.kind === 'swap' && expectation.gasless === true;
  const vault = expectation.kind === 'vault-deposit' || expectation.kind === 'vault-withdrawal' ? expectation.vault : null;
  const expectedPayer = gasless ? JUPITER_GAS_WALLET : wallet;
  if (resolved.feePayer !== expectedPayer) {
    throw new GuardRefusal('FEE_PAYER_MISMATCH', `fee payer is ${resolved.feePayer}, expected ${expectedPayer}`, { feePayer: resolved.feePayer, expected: expectedPayer });
  }
  if (!resolved.signers.includes(wallet)) throw new GuardRefusal('WALLET_NOT_SIGNER', `our wallet ${wallet} is not a required signer`, { signers: resolved.signers });
  const allowedSigners = new Set([wallet, ...(gasless ? [JUPITER_GAS_WALLET] : []), ...(kind === 'vault-withdrawal' && vault ? [vault] : [])]);
  for (const signer of resolved.signers) {
    if (!allowedSigners.has(signer)) throw new GuardRefusal('UNEXPECTED_SIGNER', `unexpected signer ${signer}`, { signer, signers: resolved.signers });
  }

  const programs = allowedPrograms(kind, options);
  for (const ix of resolved.instructions) {
    if (kind === 'login-challenge' && !isMemoProgram(ix.program)) {
      throw new GuardRefusal('MEMO_ONLY_VIOLATION', `a login challenge must be memo-only; instruction ${ix.index} calls ${ix.program}`, { instruction: ix.index, program: ix.program });
    }
    if (!programs.has(ix.program)) {
      throw new GuardRefusal('PROGRAM_NOT_ALLOWED', `program ${ix.program} is not allowed for a ${kind}`, { instruction: ix.index, program: ix.program, kind });
    }
  }
  if (kind === 'login-challenge' && resolved.instructions.length === 0) throw new GuardRefusal('MEMO_ONLY_VIOLATION', 'a login challenge must carry its memo', {});

  const walletWsol = associatedTokenAccount(wallet, SOL_MINT, TOKEN_PROGRAM);
  const ownAccounts = (mint: string | null): string[] => [wallet, ...(mint === null ? [walletWsol] : associatedTokenAccounts(wallet, mint))];
  const knownMints = mintsOf(expectation);
  const mintOfSource = (owner: string, source: string): string | null => knownMints.find((m) => associatedTokenAccounts(owner, m).includes(source)) ?? null;

  const outflows: Outflow[] = [];
  let units: number | null = null;
  let microLamports = 0n;
  let swapIn = 0n;
  let routes = 0;
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
          refuse(outflowReason(kind), `sends ${effect.lamports} lamports from our wallet to ${effect.to}`, { to: effect.to, lamports: effect.lamports.toString() });
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
            if (mint !== expectation.mint) refuse('MINT_MISMATCH', `transfers ${mint ?? 'an unknown mint'}, but the deposit is of ${expectation.mint}`, { mint });
            if (effect.dest !== associatedTokenAccount(expectation.vault, expectation.mint, ixTokenProgram(effect.tokenProgram))) {
              refuse('TRANSFER_TO_STRANGER', `transfers to ${effect.dest}, not our vault's token account`, { to: effect.dest });
            }
            outflows.push({ mint: expectation.mint, amount: effect.amount, to: effect.dest });
            break;
          }
          refuse(outflowReason(kind), `transfers ${effect.amount} of ${mint ?? 'a token'} from our account to ${effect.dest}`, { to: effect.dest, amount: effect.amount.toString(), mint });
        }
        if (vault !== null && effect.authority === vault) {
          const mint = effect.mint ?? mintOfSource(vault, effect.source);
          if (mint === null || !ownAccounts(mint).includes(effect.dest)) refuse('TRANSFER_TO_STRANGER', `sends the vault's tokens to ${effect.dest}`, { to: effect.dest, mint });
        }
        break;
      }
      case 'ata-create': {
        // We pay its rent: only for our own accounts, or our vault's when depositing.
        const owners = [wallet, ...(expectation.kind === 'vault-deposit' ? [expectation.vault] : [])];
        if (effect.payer === wallet && !owners.includes(effect.owner)) refuse('ATA_FOR_STRANGER', `creates a token account for ${effect.owner} at our expense`, { owner: effect.owner });
        break;
      }
      case 'close-account': {
        const ours = [wallet, ...(expectation.kind === 'vault-withdrawal' ? [expectation.vault] : [])];
        if (ours.includes(effect.owner) && effect.dest !== wallet) refuse('CLOSE_TO_STRANGER', `closes ${effect.account} and sends its lamports to ${effect.dest}`, { to: effect.dest });
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
        if (expectation.kind !== 'swap') break; // prediction programs: see docs/security.md
        const route = jupiterRouteFacts(ix);
        if (route === null) refuse('INSTRUCTION_NOT_ALLOWED', 'is a Jupiter instruction jupbot does not sign (only ExactIn route / shared_accounts_route)');
        const facts = route as NonNullable<typeof route>;
        if (!associatedTokenAccounts(wallet, expectation.inputMint).includes(facts.source)) {
          refuse('SWAP_ACCOUNT_MISMATCH', `takes input from ${facts.source}, not our ${expectation.inputMint} account`, { source: facts.source });
        }
        if (!associatedTokenAccounts(wallet, expectation.outputMint).includes(facts.destination)) {
          refuse('SWAP_ACCOUNT_MISMATCH', `sends output to ${facts.destination}, not our ${expectation.outputMint} account`, { destination: facts.destination });
        }
        swapIn += facts.inAmount;
        routes += 1;
        outflows.push({ mint: expectation.inputMint, amount: facts.inAmount, to: ix.program });
        break;
      }
    }
  }

  const nonBudget = resolved.instructions.filter((ix) => ix.program !== COMPUTE_BUDGET_PROGRAM.toBase58()).length;
  const budgetUnits = BigInt(units ?? Math.min(MAX_UNITS, DEFAULT_UNITS_PER_IX * nonBudget));
  const priorityFeeLamports = (budgetUnits * microLamports + 999_999n) / 1_000_000n;
  const cap = options.maxPriorityFeeLamports ?? DEFAULT_MAX_PRIORITY_FEE;
  if (expectedPayer === wallet && priorityFeeLamports > cap) {
    throw new GuardRefusal('PRIORITY_FEE_EXCEEDS_CAP', `priority fee ${priorityFeeLamports} lamports exceeds the cap of ${cap}`, { priorityFeeLamports: priorityFeeLamports.toString(), cap: cap.toString() });
  }

  if (expectation.kind === 'swap') {
    if (routes === 0) throw new GuardRefusal('SWAP_ACCOUNT_MISMATCH', 'a swap without a Jupiter route instruction', { kind });
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
      throw new GuardRefusal(reason, `deposits ${total} of ${expectation.mint}, the intent states ${expectation.amount}`, { kind, amount: total.toString(), expected: expectation.amount.toString() });
    }
  }

  return {
    kind,
    feePayer: resolved.feePayer,
    signers: resolved.signers,
    programs: [...new Set(resolved.instructions.map((ix) => ix.program))],
    outflows,
    priorityFeeLamports,
  };
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
