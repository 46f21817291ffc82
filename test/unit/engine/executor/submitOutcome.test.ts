import { describe, expect, it } from 'vitest';
import { paramsRefused, submitOutcome } from '../../../../src/engine/executor/submitOutcome.js';
import { ApiError, ParamsError, TransportError } from '../../../../src/jupiter/errors.js';
import { RpcError } from '../../../../src/solana/rpc.js';

const context = { method: 'POST', route: '/swap/v2/execute', idempotent: false } as const;

describe('submitOutcome', () => {
  it('reads a refusal as rejected and a lost answer as unknown, keeping the code', () => {
    const refused = new ApiError({ ...context, code: 'JUPITER_BAD_REQUEST', status: 400, requestId: null, body: null });
    const lost = new TransportError(context, 'timeout', 'no answer in 10 s');
    expect(submitOutcome(refused, { mode: 'first' })).toMatchObject({ kind: 'rejected', code: 'JUPITER_BAD_REQUEST', data: { mode: 'first' } });
    expect(submitOutcome(lost, { mode: 'resend' })).toMatchObject({ kind: 'unknown', code: 'JUPITER_TIMEOUT', data: { mode: 'resend' } });
  });

  it('keeps the node error code of an RPC refusal', () => {
    const error = new RpcError('RPC_ERROR', 'sendTransaction', '-32002 blockhash not found', { rpcCode: -32002, sends: true });
    expect(submitOutcome(error, { via: 'rpc' })).toEqual({
      kind: 'rejected',
      code: 'RPC_ERROR',
      message: error.message,
      data: { via: 'rpc', rpcCode: -32002 },
    });
  });

  it('counts an error of no known kind as unknown: guessing "rejected" could sign twice', () => {
    expect(submitOutcome(new Error('boom'), { mode: 'first' })).toEqual({ kind: 'unknown', code: 'SUBMIT_ERROR', message: 'boom', data: { mode: 'first' } });
  });

  it('reports parameters the client refused as PARAMS_INVALID, whatever the handler', () => {
    const error = new ParamsError('/trigger/v2/orders/price', [{ field: 'expiresAt', message: 'must be in the future' }]);
    expect(paramsRefused(error, { expiresAt: 5 })).toEqual({
      kind: 'failed',
      code: 'PARAMS_INVALID',
      message: error.message,
      data: { expiresAt: 5, client: 'JUPITER_INVALID_PARAMS' },
    });
  });
});
