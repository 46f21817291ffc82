import { HttpError } from './http.js';
import { isPubkey } from './validate.js';

/** The routers an order can go through (`excludeRouters` names them; `iris` is Metis's old name). */
export const ROUTERS = ['metis', 'dflow', 'okx', 'jupiterz'] as const;

/** Parameters that take an order out of Jupiter's defaults: the answer's `mode` is then "manual". */
const MANUAL_PARAMS = [
  'receiver',
  'slippageBps',
  'referralAccount',
  'referralFee',
  'payer',
  'priorityFeeLamports',
  'jitoTipLamports',
  'broadcastFeeType',
  'excludeRouters',
  'excludeDexes',
];

/** A `GET /order` query that passed the checks Jupiter makes before it looks for a route. */
export interface OrderQuery {
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  /** Null: Jupiter picks the slippage from the price impact. */
  readonly slippageBps: number | null;
  readonly referralAccount: string | null;
  readonly referralFee: number | null;
  readonly taker: string | null;
  readonly receiver: string | null;
  readonly payer: string | null;
  readonly priorityFeeLamports: number | null;
  readonly jitoTipLamports: number | null;
  readonly excludedRouters: ReadonlySet<string>;
  /** DEX labels the route may not use (`excludeDexes`, comma-separated). */
  readonly excludedDexes: ReadonlySet<string>;
  readonly mode: 'manual' | 'ultra';
}

/**
 * Checks an order's query as Jupiter does, in its order, answering 400 `{ error }` at the first
 * problem: the caller sees the one message the live API would send.
 */
export function parseOrderQuery(q: URLSearchParams): OrderQuery {
  const fail = (error: string): never => {
    throw new HttpError(400, { error });
  };
  const inputMint = q.get('inputMint') ?? fail('Missing required query parameter: inputMint');
  const outputMint = q.get('outputMint') ?? fail('Missing required query parameter: outputMint');
  const amountText = q.get('amount') ?? fail('Missing required query parameter: amount');
  if (!isPubkey(inputMint)) fail('Invalid inputMint');
  if (!isPubkey(outputMint)) fail('Invalid outputMint');
  if (!/^\d{1,20}$/.test(amountText) || BigInt(amountText) === 0n) fail('Invalid amount: expected a positive integer string');
  if (inputMint === outputMint) fail('inputMint and outputMint cannot be the same');
  const swapMode = q.get('swapMode');
  if (swapMode !== null && swapMode !== 'ExactIn') fail('Invalid swapMode: only ExactIn is supported');
  const slippageText = q.get('slippageBps');
  if (slippageText !== null && (!/^\d+$/.test(slippageText) || Number(slippageText) > 10_000)) fail('Invalid slippageBps: expected an integer 0-10000');
  const referralAccount = q.get('referralAccount');
  const referralFee = q.get('referralFee');
  if ((referralAccount === null) !== (referralFee === null)) fail('referralAccount and referralFee must be used together');
  if (referralFee !== null && !(Number(referralFee) >= 50 && Number(referralFee) <= 255)) fail('Invalid referralFee: expected 50-255');
  if (referralAccount !== null && !isPubkey(referralAccount)) fail('Invalid referralAccount');
  const taker = q.get('taker');
  const receiver = q.get('receiver');
  const payer = q.get('payer');
  for (const [name, value] of [
    ['taker', taker],
    ['receiver', receiver],
    ['payer', payer],
  ] as const) {
    if (value !== null && !isPubkey(value)) fail(`Invalid ${name}`);
  }
  if (receiver !== null && receiver === taker) fail('receiver must differ from taker');
  const priorityText = q.get('priorityFeeLamports');
  if (priorityText !== null && !(Number(priorityText) > 0)) fail('Invalid priorityFeeLamports');
  const jitoText = q.get('jitoTipLamports');
  if (jitoText !== null && !(Number(jitoText) >= 0)) fail('Invalid jitoTipLamports');
  const broadcastFeeType = q.get('broadcastFeeType');
  if (broadcastFeeType !== null && broadcastFeeType !== 'maxCap' && broadcastFeeType !== 'exactFee') fail('Invalid broadcastFeeType');
  const excludedRouters = new Set(
    (q.get('excludeRouters') ?? '')
      .split(',')
      .map((r) => r.trim())
      .filter((r) => r !== '')
      .map((r) => (r === 'iris' ? 'metis' : r)),
  );
  for (const r of excludedRouters) if (!(ROUTERS as readonly string[]).includes(r)) fail(`Invalid excludeRouters value: ${r}`);
  const excludedDexes = new Set(
    (q.get('excludeDexes') ?? '')
      .split(',')
      .map((d) => d.trim())
      .filter((d) => d !== ''),
  );
  return {
    inputMint,
    outputMint,
    amount: BigInt(amountText),
    slippageBps: slippageText === null ? null : Number(slippageText),
    referralAccount,
    referralFee: referralFee === null ? null : Number(referralFee),
    taker,
    receiver,
    payer,
    priorityFeeLamports: priorityText === null ? null : Number(priorityText),
    jitoTipLamports: jitoText === null ? null : Number(jitoText),
    excludedRouters,
    excludedDexes,
    mode: MANUAL_PARAMS.some((k) => q.has(k)) ? 'manual' : 'ultra',
  };
}
