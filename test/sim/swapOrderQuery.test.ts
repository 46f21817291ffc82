import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/sim/http.js';
import { parseOrderQuery } from '../../src/sim/swapOrderQuery.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TAKER = 'BQ72nSv9f3PRyRKCBnHLVrerrv37CYTHm5h3s9VSGQDV';

const refusal = (params: Record<string, string>): unknown => {
  try {
    parseOrderQuery(new URLSearchParams(params));
  } catch (error) {
    return error instanceof HttpError ? [error.status, error.body] : error;
  }
  return 'accepted';
};

describe('the simulator reads an order query as Jupiter does', () => {
  const pair = { inputMint: SOL, outputMint: USDC };

  it.each([
    [{ outputMint: USDC, amount: '1' }, 'Missing required query parameter: inputMint'],
    [{ inputMint: SOL, amount: '1' }, 'Missing required query parameter: outputMint'],
    [pair, 'Missing required query parameter: amount'],
    [{ ...pair, outputMint: 'notamint', amount: '1' }, 'Invalid outputMint'],
    [{ ...pair, amount: '0' }, 'Invalid amount: expected a positive integer string'],
    [{ ...pair, amount: '-5' }, 'Invalid amount: expected a positive integer string'],
    [{ inputMint: SOL, outputMint: SOL, amount: '1' }, 'inputMint and outputMint cannot be the same'],
    [{ ...pair, amount: '1', swapMode: 'ExactOut' }, 'Invalid swapMode: only ExactIn is supported'],
    [{ ...pair, amount: '1', slippageBps: '10001' }, 'Invalid slippageBps: expected an integer 0-10000'],
    [{ ...pair, amount: '1', referralFee: '60' }, 'referralAccount and referralFee must be used together'],
    [{ ...pair, amount: '1', referralFee: '20', referralAccount: TAKER }, 'Invalid referralFee: expected 50-255'],
    [{ ...pair, amount: '1', taker: TAKER, receiver: TAKER }, 'receiver must differ from taker'],
    [{ ...pair, amount: '1', payer: 'x' }, 'Invalid payer'],
    [{ ...pair, amount: '1', priorityFeeLamports: '0' }, 'Invalid priorityFeeLamports'],
    [{ ...pair, amount: '1', broadcastFeeType: 'cheap' }, 'Invalid broadcastFeeType'],
    [{ ...pair, amount: '1', excludeRouters: 'metis,nobody' }, 'Invalid excludeRouters value: nobody'],
  ])('%j → 400 %s', (params, error) => {
    expect(refusal(params)).toEqual([400, { error }]);
  });

  it('keeps what the order needs, with "iris" read as Metis and any tuning making it manual', () => {
    expect(parseOrderQuery(new URLSearchParams({ ...pair, amount: '1000' }))).toMatchObject({
      amount: 1000n,
      slippageBps: null,
      taker: null,
      priorityFeeLamports: null,
      mode: 'ultra',
    });
    const tuned = parseOrderQuery(
      new URLSearchParams({
        ...pair,
        amount: '25',
        taker: TAKER,
        slippageBps: '30',
        jitoTipLamports: '1000',
        referralAccount: TAKER,
        referralFee: '80',
        excludeRouters: ' iris, okx',
      }),
    );
    expect(tuned).toMatchObject({ amount: 25n, taker: TAKER, slippageBps: 30, jitoTipLamports: 1000, referralAccount: TAKER, referralFee: 80, mode: 'manual' });
    expect([...tuned.excludedRouters]).toEqual(['metis', 'okx']);
  });
});
