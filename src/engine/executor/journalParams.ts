import type { z } from 'zod';
import { IntentRefusedError } from './errors.js';

/**
 * A journal row's params read back for its kind. They were written by the kind's route, so a row that
 * does not parse was edited or written by another version: the intent fails `PARAMS_INVALID` rather
 * than act on a guess.
 */
export function parseJournalParams<S extends z.ZodType>(schema: S, kind: string, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) {
    throw new IntentRefusedError('PARAMS_INVALID', `${kind} params do not parse: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
