/**
 * The guard's second half: what the transaction would do to our accounts, proven by simulating it
 * before it is signed. The static checks bound what the instructions say; the simulation shows what
 * the programs do, including inside programs the guard cannot read (venues, RFQ fills, the
 * prediction program). We read our accounts before, ask the node for them after, and compare with
 * the intent: no more than the intent's input leaves, at least its minimum arrives, the wallet's
 * SOL falls by no more than fees, rent and declared refunds, and no owner, delegate or close
 * authority of ours changes. A simulation that fails or cannot be run is a refusal, never a pass.
 * "Before" is read on the state the simulation ran on (consistentSimulation.ts): what lands
 * meanwhile, from elsewhere or ours, is not the transaction's effect.
 */
import { PublicKey, type VersionedTransaction } from '@solana/web3.js';
import type { Expectation } from './expectation.js';
import type { GuardSummary } from './guard.js';
import { GuardRefusal } from './guardRefusal.js';
import { SOL_MINT, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './programIds.js';
import { type SimulationRpc, simulateConsistently } from './consistentSimulation.js';
import type { AccountState } from './rpc.js';

export type EffectsRpc = SimulationRpc;

export interface EffectsReport {
  /** Net change per mint over the wallet and its token accounts (SOL: lamports plus wrapped SOL). */
  readonly deltas: Readonly<Record<string, string>>;
  readonly accounts: readonly string[];
  readonly unitsConsumed: number | null;
}

interface TokenState {
  readonly mint: string;
  readonly owner: string;
  readonly amount: bigint;
  readonly delegate: string | null;
  readonly closeAuthority: string | null;
}

const TOKEN_PROGRAMS = new Set([TOKEN_PROGRAM.toBase58(), TOKEN_2022_PROGRAM.toBase58()]);
const SYSTEM = SYSTEM_PROGRAM.toBase58();
const MAX_ACCOUNTS = 100;

function key(data: Buffer, offset: number): string {
  return new PublicKey(data.subarray(offset, offset + 32)).toBase58();
}

/** The SPL Token account layout (Token-2022's base is the same 165 bytes). */
export function parseTokenAccount(account: AccountState | null): TokenState | null {
  if (account === null || !TOKEN_PROGRAMS.has(account.owner) || account.data.length < 165) return null;
  const d = account.data;
  const option = (at: number): string | null => (d.readUInt32LE(at) === 1 ? key(d, at + 4) : null);
  return { mint: key(d, 0), owner: key(d, 32), amount: d.readBigUInt64LE(64), delegate: option(72), closeAuthority: option(129) };
}

function refuse(reason: ConstructorParameters<typeof GuardRefusal>[0], message: string, details: Record<string, unknown> = {}): never {
  throw new GuardRefusal(reason, message, details);
}

/** What may leave per mint under this intent (SOL's fee and rent budget comes on top). */
function allowance(expectation: Expectation): Map<string, bigint> {
  switch (expectation.kind) {
    case 'swap':
      return new Map([[expectation.inputMint, expectation.maxInAmount]]);
    case 'vault-deposit':
      return new Map([[expectation.mint, expectation.amount]]);
    case 'prediction-buy':
      return new Map([[expectation.mint, expectation.maxAmount]]);
    default:
      return new Map();
  }
}

/**
 * Simulates `tx` (unsigned or partly signed; signatures are not verified) and checks its effects on
 * our accounts against `expectation`. Resolves with the deltas, or rejects with a {@link GuardRefusal}.
 */
export async function proveEffects(
  tx: VersionedTransaction,
  expectation: Expectation,
  summary: GuardSummary,
  options: { wallet: string; rpc: EffectsRpc },
): Promise<EffectsReport> {
  const { wallet, rpc } = options;
  // Only writable accounts can change; the wallet is always watched.
  const writable = new Set<string>([wallet, ...summary.writableAccounts]);
  const watched = [...writable].slice(0, MAX_ACCOUNTS);
  if (writable.size > MAX_ACCOUNTS)
    refuse('SIMULATION_UNAVAILABLE', `the transaction writes ${writable.size} accounts, more than the ${MAX_ACCOUNTS} a simulation can report`, {
      accounts: writable.size,
    });

  let before: readonly (AccountState | null)[];
  let after: (AccountState | null)[];
  let err: unknown;
  let unitsConsumed: number | null;
  try {
    // Before and after on one state of the chain: nothing that lands meanwhile counts as an effect.
    const consistent = await simulateConsistently(rpc, Buffer.from(tx.serialize()).toString('base64'), watched);
    before = consistent.before;
    after = [...consistent.simulated.accounts];
    err = consistent.simulated.err;
    unitsConsumed = consistent.simulated.unitsConsumed;
  } catch (error) {
    if (error instanceof GuardRefusal) throw error;
    return refuse('SIMULATION_UNAVAILABLE', `the transaction could not be simulated: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error instanceof Error ? error.message : String(error),
    });
  }
  if (err === 'AlreadyProcessed')
    refuse('SIMULATION_ALREADY_PROCESSED', 'identical bytes have already landed (another intent built the same transaction); build it again', { err });
  if (err !== null && err !== undefined) refuse('SIMULATION_FAILED', `the simulation failed: ${JSON.stringify(err)}`, { err });

  const deltas = new Map<string, bigint>();
  const add = (mint: string, amount: bigint): void => {
    deltas.set(mint, (deltas.get(mint) ?? 0n) + amount);
  };
  watched.forEach((address, i) => {
    const pre = before[i] ?? null;
    const post = after[i] ?? null;
    if (address === wallet) {
      if (post !== null && (post.owner !== SYSTEM || post.data.length !== (pre?.data.length ?? 0))) {
        refuse('EFFECT_AUTHORITY_CHANGED', `the wallet account would be reassigned to ${post.owner} or resized`, { owner: post.owner });
      }
      add(SOL_MINT, (post?.lamports ?? 0n) - (pre?.lamports ?? 0n));
      return;
    }
    const preToken = parseTokenAccount(pre);
    const postToken = parseTokenAccount(post);
    const oursBefore = preToken?.owner === wallet;
    const oursAfter = postToken?.owner === wallet;
    if (!oursBefore && !oursAfter) return;
    if (oursBefore && post !== null && !oursAfter)
      refuse('EFFECT_AUTHORITY_CHANGED', `our token account ${address} would change owner to ${postToken?.owner ?? post.owner}`, { account: address });
    if (oursBefore && postToken && (postToken.delegate !== preToken.delegate || postToken.closeAuthority !== preToken.closeAuthority)) {
      refuse(
        'EFFECT_AUTHORITY_CHANGED',
        `our token account ${address} would get delegate ${postToken.delegate ?? 'none'} / close authority ${postToken.closeAuthority ?? 'none'}`,
        { account: address },
      );
    }
    if (!oursBefore && postToken && (postToken.delegate !== null || postToken.closeAuthority !== null)) {
      refuse('EFFECT_AUTHORITY_CHANGED', `our new token account ${address} would be created with a delegate or close authority`, { account: address });
    }
    const mint = (preToken ?? postToken)?.mint as string;
    add(mint, (oursAfter ? (postToken?.amount ?? 0n) : 0n) - (oursBefore ? preToken.amount : 0n));
  });

  const allowed = allowance(expectation);
  for (const [mint, delta] of deltas) {
    if (delta >= 0n) continue;
    const out = -delta;
    const limit = (allowed.get(mint) ?? 0n) + (mint === SOL_MINT ? summary.solBudgetLamports : 0n);
    if (out > limit) {
      const reason = mint === SOL_MINT && !allowed.has(mint) ? 'EFFECT_SOL_EXCEEDS_BUDGET' : 'EFFECT_OUTFLOW_EXCEEDS_INTENT';
      refuse(reason, `the simulation shows ${out} of ${mint} leaving our accounts; the intent allows ${limit}`, {
        mint,
        out: out.toString(),
        allowed: limit.toString(),
      });
    }
  }
  if (expectation.kind === 'swap') {
    const got = (deltas.get(expectation.outputMint) ?? 0n) + (expectation.outputMint === SOL_MINT ? summary.solBudgetLamports : 0n);
    if (got < expectation.minOutAmount) {
      refuse(
        'EFFECT_INFLOW_BELOW_MINIMUM',
        `the simulation shows ${got} of ${expectation.outputMint} arriving; the intent's minimum is ${expectation.minOutAmount}`,
        {
          mint: expectation.outputMint,
          received: got.toString(),
          minimum: expectation.minOutAmount.toString(),
        },
      );
    }
  }
  return { deltas: Object.fromEntries([...deltas].map(([m, d]) => [m, d.toString()])), accounts: watched, unitsConsumed };
}
