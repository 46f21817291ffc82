/**
 * The `Swap` enum of Jupiter Aggregator v6's route plans: each variant names a venue and carries
 * fields of its own, so a route plan can only be walked when every variant in it is known. Indices
 * 0-58 follow the program's published instruction-parser IDL (v6.0.27); 59-108 follow a later public
 * IDL of the same program. Jupiter keeps adding venues, so an index past this table is reported as
 * unknown and the caller refuses the instruction: guessing a variant's length would mis-read every
 * byte after it.
 */
import type { BorshReader } from './borshReader.js';

type Field = 'bool' | 'u8' | 'u32' | 'u64' | 'side' | 'remainingAccounts' | 'optionalRemainingAccounts';

/** [name, fields] by variant index. */
const VARIANTS: readonly (readonly [string, readonly Field[]])[] = [
  ['Saber', []],
  ['SaberAddDecimalsDeposit', []],
  ['SaberAddDecimalsWithdraw', []],
  ['TokenSwap', []],
  ['Sencha', []],
  ['Step', []],
  ['Cropper', []],
  ['Raydium', []],
  ['Crema', ['bool']],
  ['Lifinity', []],
  ['Mercurial', []],
  ['Cykura', []],
  ['Serum', ['side']],
  ['MarinadeDeposit', []],
  ['MarinadeUnstake', []],
  ['Aldrin', ['side']],
  ['AldrinV2', ['side']],
  ['Whirlpool', ['bool']],
  ['Invariant', ['bool']],
  ['Meteora', []],
  ['GooseFX', []],
  ['DeltaFi', ['bool']],
  ['Balansol', []],
  ['MarcoPolo', ['bool']],
  ['Dradex', ['side']],
  ['LifinityV2', []],
  ['RaydiumClmm', []],
  ['Openbook', ['side']],
  ['Phoenix', ['side']],
  ['Symmetry', ['u64', 'u64']],
  ['TokenSwapV2', []],
  ['HeliumTreasuryManagementRedeemV0', []],
  ['StakeDexStakeWrappedSol', []],
  ['StakeDexSwapViaStake', ['u32']],
  ['GooseFXV2', []],
  ['Perps', []],
  ['PerpsAddLiquidity', []],
  ['PerpsRemoveLiquidity', []],
  ['MeteoraDlmm', []],
  ['OpenBookV2', ['side']],
  ['RaydiumClmmV2', []],
  ['StakeDexPrefundWithdrawStakeAndDepositStake', ['u32']],
  ['Clone', ['u8', 'bool', 'bool']],
  ['SanctumS', ['u8', 'u8', 'u32', 'u32']],
  ['SanctumSAddLiquidity', ['u8', 'u32']],
  ['SanctumSRemoveLiquidity', ['u8', 'u32']],
  ['RaydiumCP', []],
  ['WhirlpoolSwapV2', ['bool', 'optionalRemainingAccounts']],
  ['OneIntro', []],
  ['PumpdotfunWrappedBuy', []],
  ['PumpdotfunWrappedSell', []],
  ['PerpsV2', []],
  ['PerpsV2AddLiquidity', []],
  ['PerpsV2RemoveLiquidity', []],
  ['MoonshotWrappedBuy', []],
  ['MoonshotWrappedSell', []],
  ['StabbleStableSwap', []],
  ['StabbleWeightedSwap', []],
  ['Obric', ['bool']],
  ['FoxBuyFromEstimatedCost', []],
  ['FoxClaimPartial', ['bool']],
  ['SolFi', ['bool']],
  ['SolayerDelegateNoInit', []],
  ['SolayerUndelegateNoInit', []],
  ['TokenMill', ['side']],
  ['DaosFunBuy', []],
  ['DaosFunSell', []],
  ['ZeroFi', []],
  ['StakeDexWithdrawWrappedSol', []],
  ['VirtualsBuy', []],
  ['VirtualsSell', []],
  ['Perena', ['u8', 'u8']],
  ['PumpSwapBuy', []],
  ['PumpSwapSell', []],
  ['Gamma', []],
  ['MeteoraDlmmSwapV2', ['remainingAccounts']],
  ['Woofi', []],
  ['MeteoraDammV2', []],
  ['MeteoraDynamicBondingCurveSwap', []],
  ['StabbleStableSwapV2', []],
  ['StabbleWeightedSwapV2', []],
  ['RaydiumLaunchlabBuy', ['u64']],
  ['RaydiumLaunchlabSell', ['u64']],
  ['BoopdotfunWrappedBuy', []],
  ['BoopdotfunWrappedSell', []],
  ['Plasma', ['side']],
  ['GoonFi', ['bool', 'u8']],
  ['HumidiFi', ['u64', 'bool']],
  ['MeteoraDynamicBondingCurveSwapWithRemainingAccounts', []],
  ['TesseraV', ['side']],
  ['PumpWrappedBuyV2', []],
  ['PumpWrappedSellV2', []],
  ['PumpSwapBuyV2', []],
  ['PumpSwapSellV2', []],
  ['Heaven', ['bool']],
  ['SolFiV2', ['bool']],
  ['Aquifer', []],
  ['PumpWrappedBuyV3', []],
  ['PumpWrappedSellV3', []],
  ['PumpSwapBuyV3', []],
  ['PumpSwapSellV3', []],
  ['JupiterLendDeposit', []],
  ['JupiterLendRedeem', []],
  ['DefiTuna', ['bool', 'optionalRemainingAccounts']],
  ['AlphaQ', ['bool']],
  ['RaydiumV2', []],
  ['SarosDlmm', ['bool']],
  ['Futarchy', ['side']],
  ['MeteoraDammV2WithRemainingAccounts', []],
];

/** How many `Swap` variants the decoder knows. */
export const KNOWN_SWAP_VARIANTS = VARIANTS.length;

/** Thrown for a variant index past the table: the route plan cannot be walked. */
export class UnknownSwapVariant extends Error {
  override name = 'UnknownSwapVariant';
  constructor(readonly index: number) {
    super(`route plan uses Swap variant ${index}, newer than the ${KNOWN_SWAP_VARIANTS} this decoder knows`);
  }
}

function skipField(reader: BorshReader, field: Field, what: string): void {
  switch (field) {
    case 'bool':
      reader.bool(what);
      return;
    case 'u8':
      reader.u8(what);
      return;
    case 'u32':
      reader.u32(what);
      return;
    case 'u64':
      reader.u64(what);
      return;
    case 'side': {
      const side = reader.u8(what);
      if (side > 1) throw new RangeError(`${what} is side ${side}, not Bid or Ask`);
      return;
    }
    case 'remainingAccounts':
      reader.vec(() => [reader.u8(`${what} slice type`), reader.u8(`${what} slice length`)], `${what} slices`);
      return;
    case 'optionalRemainingAccounts':
      reader.option(() => skipField(reader, 'remainingAccounts', what), what);
      return;
  }
}

/** Reads one `Swap` value; returns the venue's name. */
export function readSwapVariant(reader: BorshReader): string {
  const index = reader.u8('swap variant');
  const variant = VARIANTS[index];
  if (!variant) throw new UnknownSwapVariant(index);
  const [name, fields] = variant;
  fields.forEach((field, i) => skipField(reader, field, `${name} field ${i}`));
  return name;
}

/** The variant index of a venue name (for building test transactions). */
export function swapVariantIndex(name: string): number {
  const index = VARIANTS.findIndex(([n]) => n === name);
  if (index < 0) throw new RangeError(`unknown Swap variant ${name}`);
  return index;
}
