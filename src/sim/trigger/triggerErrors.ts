import { HttpError } from '../http.js';

/** Trigger V2's error envelope: `{ error, details? }`. */
export const triggerError = (status: number, error: string, details?: Record<string, string>): HttpError =>
  new HttpError(status, details ? { error, details } : { error });

export const validationFailed = (details: Record<string, string>): HttpError => triggerError(400, 'Request validation failed', details);

export const unauthorized = (): HttpError => triggerError(401, 'Unauthorized');

export const forbiddenUser = (): HttpError => triggerError(403, 'Forbidden: userPubkey must match authenticated user');
