/**
 * The static checks of a Jupiter swap instruction against a swap intent: who authorises it, where
 * the input comes from, every account that can receive its output or a fee, the swap mode, the
 * slippage and quoted output the route carries. The amounts that actually move are proven again by
 * simulation (see effects.ts); these checks stop what must never even be simulated.
 */
import { PublicKey } from '@solana/web3.js';
import { decodeJupiterSwap, type JupiterSwapInstruction, SwapDecodeError, swapSource } from './decode/jupiterSwapInstruction.js';
import type { SwapVariantTable } from './decode/swapVariantTable.js';
import type { SwapExpectation } from './expectation.js';
import { GuardRefusal, type RefusalReason } from './guardRefusal.js';
import { associatedTokenAccounts, JUPITER_AGGREGATOR_V6 } from './programIds.js';
import type { ResolvedInstruction } from './resolveAccounts.js';

export interface SwapRuleOptions {
  readonly wallet: string;
  /** Platform-fee token accounts of ours the operator configured (a referral fee paid to us). */
  readonly platformFeeAccounts?: readonly string[] | undefined;
  /** The highest fee Jupiter may charge inside a route, whatever the answer declares. @default {@link DEFAULT_MAX_FEE_BPS} */
  readonly maxFeeBps?: number | undefined;
  /** The venues a route plan is walked with. @default the bundled table */
  readonly venues?: SwapVariantTable | undefined;
}

/**
 * The default cap on Jupiter's own fee inside a route (`guard.max_fee_bps`). Jupiter's schedule
 * charges 0 to 10 bps on established pairs and 50 bps on tokens under a day old, and a gasless
 * answer adds its fee recovery on top: 100 bps leaves room for all of that and no more.
 */
export const DEFAULT_MAX_FEE_BPS = 100;

/** The least a route can deliver, rounded as the program rounds: quoted less floor(quoted × slippage / 10 000). */
export function leastDeliverable(quoted: bigint, slippageBps: number): bigint {
  return quoted - (quoted * BigInt(slippageBps)) / 10_000n;
}

const authorityCache = new Map<number, string>();

/** Jupiter's shared-accounts program authority for `id`: the PDA of ["authority", id]. */
export function programAuthority(id: number): string {
  let address = authorityCache.get(id);
  if (address === undefined) {
    address = PublicKey.findProgramAddressSync([Buffer.from('authority'), Buffer.from([id])], JUPITER_AGGREGATOR_V6)[0].toBase58();
    authorityCache.set(id, address);
  }
  return address;
}

/** Decodes and checks one Aggregator v6 instruction of a swap; returns what it states. */
export function checkJupiterSwap(ix: ResolvedInstruction, expectation: SwapExpectation, options: SwapRuleOptions): JupiterSwapInstruction {
  const refuse = refuser(ix, { kind: 'swap' });
  const swap = decodeOrRefuse(ix, refuse, options.venues);
  const { wallet } = options;
  if (swap.mode !== 'ExactIn' || swap.tokenLedger) {
    refuse(
      'SWAP_MODE_NOT_ALLOWED',
      `${swap.name} is ${swap.tokenLedger ? 'a token-ledger route (its input amount is not in the data)' : 'an ExactOut route'}; jupbot asks for ExactIn swaps only`,
      { name: swap.name },
    );
  }
  if (swap.accounts['userTransferAuthority'] !== wallet)
    refuse('SWAP_ACCOUNT_MISMATCH', `is authorised by ${swap.accounts['userTransferAuthority']}, not our wallet`, {
      authority: swap.accounts['userTransferAuthority'],
    });
  const source = swapSource(swap);
  if (!associatedTokenAccounts(wallet, expectation.inputMint).includes(source))
    refuse('SWAP_ACCOUNT_MISMATCH', `takes input from ${source}, not our ${expectation.inputMint} account`, { source });
  const sourceMint = swap.accounts['sourceMint'];
  if (sourceMint !== undefined && sourceMint !== null && sourceMint !== expectation.inputMint)
    refuse('MINT_MISMATCH', `swaps from ${sourceMint}, the intent from ${expectation.inputMint}`, { mint: sourceMint });
  if (swap.accounts['destinationMint'] !== expectation.outputMint)
    refuse('MINT_MISMATCH', `swaps into ${swap.accounts['destinationMint']}, the intent into ${expectation.outputMint}`, {
      mint: swap.accounts['destinationMint'],
    });

  // Every account that can receive the output must be ours.
  const ours = associatedTokenAccounts(wallet, expectation.outputMint);
  const receivers: [string, string | null | undefined][] = swap.shared
    ? [['destinationTokenAccount', swap.accounts['destinationTokenAccount']]]
    : [
        ['userDestinationTokenAccount', swap.accounts['userDestinationTokenAccount']],
        ['destinationTokenAccount', swap.accounts['destinationTokenAccount']],
      ];
  for (const [role, address] of receivers) {
    if (address === null && role === 'destinationTokenAccount' && !swap.shared) continue;
    if (address === null || address === undefined || !ours.includes(address))
      refuse('SWAP_DESTINATION_NOT_OURS', `its ${role} ${address ?? '(none)'} is not our ${expectation.outputMint} account`, {
        role,
        destination: address ?? null,
      });
  }
  if (swap.shared) {
    const id = swap.id ?? -1;
    const authority = programAuthority(id);
    if (swap.accounts['programAuthority'] !== authority)
      refuse('SWAP_ACCOUNT_MISMATCH', `its program authority ${swap.accounts['programAuthority']} is not Jupiter's authority ${id}`, {
        programAuthority: swap.accounts['programAuthority'],
      });
    const intermediate = swap.accounts['programDestinationTokenAccount'] as string;
    if (!associatedTokenAccounts(authority, expectation.outputMint).includes(intermediate)) {
      refuse(
        'SWAP_DESTINATION_NOT_OURS',
        `its programDestinationTokenAccount ${intermediate} is not Jupiter's authority account for ${expectation.outputMint}`,
        { role: 'programDestinationTokenAccount', destination: intermediate },
      );
    }
  }
  checkFee(swap, expectation, options, refuse);
  if (swap.slippageBps > expectation.maxSlippageBps)
    refuse('SLIPPAGE_EXCEEDS_CAP', `allows ${swap.slippageBps} bps of slippage, more than the cap of ${expectation.maxSlippageBps}`, {
      slippageBps: swap.slippageBps,
      cap: expectation.maxSlippageBps,
    });
  const quoted = swap.quotedOutAmount ?? 0n;
  const floor = expectation.quotedOutAmount ?? expectation.minOutAmount;
  if (quoted < floor)
    refuse('QUOTED_OUT_BELOW_MINIMUM', `quotes ${quoted} of ${expectation.outputMint}, below the ${floor} the intent accepted`, {
      quotedOutAmount: quoted.toString(),
      minimum: floor.toString(),
    });
  const deliverable = leastDeliverable(quoted, swap.slippageBps);
  if (deliverable < expectation.minOutAmount) {
    refuse(
      'QUOTED_OUT_BELOW_MINIMUM',
      `may deliver as little as ${deliverable} of ${expectation.outputMint}, below the intent's minimum of ${expectation.minOutAmount}`,
      {
        deliverable: deliverable.toString(),
        minimum: expectation.minOutAmount.toString(),
      },
    );
  }
  return swap;
}

/**
 * A Jupiter route inside a prediction order (the deposit swapped into the provider's dollar token):
 * authorised by us, ExactIn, every receiver our own account of its output mint, no platform fee.
 * What it spends is proven by simulation, since a plain `route` does not name its input mint.
 */
export function checkInnerJupiterSwap(ix: ResolvedInstruction, wallet: string, venues?: SwapVariantTable): JupiterSwapInstruction {
  const refuse = refuser(ix, {});
  const swap = decodeOrRefuse(ix, refuse, venues);
  if (swap.mode !== 'ExactIn' || swap.tokenLedger) refuse('SWAP_MODE_NOT_ALLOWED', `${swap.name} is not a plain ExactIn route`, { name: swap.name });
  if (swap.accounts['userTransferAuthority'] !== wallet)
    refuse('SWAP_ACCOUNT_MISMATCH', `is authorised by ${swap.accounts['userTransferAuthority']}, not our wallet`);
  const ours = associatedTokenAccounts(wallet, swap.accounts['destinationMint'] as string);
  for (const role of swap.shared ? ['destinationTokenAccount'] : ['userDestinationTokenAccount', 'destinationTokenAccount']) {
    const address = swap.accounts[role];
    if (address === null && !swap.shared) continue;
    if (address === null || address === undefined || !ours.includes(address))
      refuse('SWAP_DESTINATION_NOT_OURS', `its ${role} ${address ?? '(none)'} is not our own account`, { role, destination: address ?? null });
  }
  if (swap.platformFeeBps > 0 || (swap.accounts['platformFeeAccount'] ?? null) !== null)
    refuse('PLATFORM_FEE_NOT_ALLOWED', 'a route inside a prediction order carries a platform fee');
  return swap;
}

/**
 * The fee a route charges. Paid into a fee account of ours (a referral the operator configured), it
 * is our own. Otherwise it is Jupiter's: the `*_v2` forms carry it with no fee account at all, the
 * older forms pay it into Jupiter's account. Jupiter's fee must be one the answer declared (`feeBps`),
 * no higher, and under the operator's cap; a lower one only costs us less.
 */
function checkFee(swap: JupiterSwapInstruction, expectation: SwapExpectation, options: SwapRuleOptions, refuse: Refuse): void {
  const feeAccount = swap.accounts['platformFeeAccount'] ?? null;
  const ours = feeAccount !== null && (options.platformFeeAccounts ?? []).includes(feeAccount);
  if (ours) return;
  const fee = swap.platformFeeBps;
  if (fee === 0) {
    if (feeAccount !== null)
      refuse('PLATFORM_FEE_NOT_ALLOWED', `names ${feeAccount} as its platform fee account, not a fee account of ours`, { platformFeeAccount: feeAccount });
    return;
  }
  const declared = expectation.feeBps ?? 0;
  const where = feeAccount === null ? '' : ` into ${feeAccount}`;
  if (declared === 0)
    refuse('PLATFORM_FEE_UNDECLARED', `charges a fee of ${fee} bps${where} that the answer did not declare`, {
      platformFeeBps: fee,
      platformFeeAccount: feeAccount,
    });
  if (fee > declared)
    refuse('PLATFORM_FEE_EXCEEDS_DECLARED', `charges a fee of ${fee} bps${where}, more than the ${declared} bps the answer declared`, {
      platformFeeBps: fee,
      declaredFeeBps: declared,
    });
  const cap = options.maxFeeBps ?? DEFAULT_MAX_FEE_BPS;
  if (fee > cap) refuse('PLATFORM_FEE_EXCEEDS_CAP', `charges a fee of ${fee} bps, more than guard.max_fee_bps (${cap})`, { platformFeeBps: fee, cap });
}

type Refuse = (reason: RefusalReason, message: string, details?: Record<string, unknown>) => never;

/** A refusal naming the instruction, its program and `extra`. */
function refuser(ix: ResolvedInstruction, extra: Record<string, unknown>): Refuse {
  return (reason, message, details = {}) => {
    throw new GuardRefusal(reason, `instruction ${ix.index}: ${message}`, { instruction: ix.index, program: ix.program, ...extra, ...details });
  };
}

/** The instruction decoded by its exact layout, or the decoder's reason as a refusal. */
function decodeOrRefuse(ix: ResolvedInstruction, refuse: Refuse, venues: SwapVariantTable | undefined): JupiterSwapInstruction {
  try {
    return decodeJupiterSwap(
      ix.program,
      ix.accounts.map((a) => a.address),
      ix.data,
      venues,
    );
  } catch (error) {
    if (!(error instanceof SwapDecodeError)) throw error;
    const message = error.failure === 'INSTRUCTION_NOT_ALLOWED' ? 'is a Jupiter instruction that is not a swap entry point jupbot knows' : error.message;
    return refuse(error.failure, message, { ...error.details });
  }
}
