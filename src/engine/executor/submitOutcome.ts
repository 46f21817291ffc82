/**
 * What a failed submit means for the executor, for every family: Jupiter or the node answered and
 * refused (`rejected`: this call did not land it, though the signed bytes may still land until they
 * expire), or the outcome is not known (a timeout, a 5xx, a reset: `unknown`, the signature decides).
 * An error of no known kind counts as unknown: guessing "rejected" could sign twice.
 */
import { ApiError, ExecuteFailedError, type ParamsError, TransportError } from '../../jupiter/errors.js';
import { RpcError } from '../../solana/rpc.js';
import type { SubmitResult } from './handler.js';

export function submitOutcome(error: unknown, data: Record<string, unknown>): SubmitResult {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ApiError || error instanceof TransportError || error instanceof RpcError))
    return { kind: 'unknown', code: 'SUBMIT_ERROR', message, data };
  const extra = error instanceof ExecuteFailedError ? { executeCode: error.executeCode } : error instanceof RpcError ? { rpcCode: error.rpcCode } : {};
  return { kind: error.outcomeUnknown ? 'unknown' : 'rejected', code: error.code, message, data: { ...data, ...extra } };
}

/**
 * The API client refused our parameters before sending anything (a {@link ParamsError}): final, the
 * same params fail the same way. Every handler reports it as `PARAMS_INVALID`.
 */
export function paramsRefused(
  error: ParamsError,
  data: Record<string, unknown> = {},
): { readonly kind: 'failed'; readonly code: 'PARAMS_INVALID'; readonly message: string; readonly data: object } {
  return { kind: 'failed', code: 'PARAMS_INVALID', message: error.message, data: { ...data, client: error.code } };
}
