import { Secret } from '../secret.js';

/** Read-only all the way down; a {@link Secret} is kept whole (its methods are its interface). */
export type DeepReadonly<T> = T extends Secret
  ? T
  : T extends readonly (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/**
 * Freezes `value` and everything reachable from it, so a config handed to many modules cannot be
 * changed by one of them behind the others' backs (in strict mode, an assignment throws).
 */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    if (!(value instanceof Secret)) {
      for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
    }
  }
  return value as DeepReadonly<T>;
}
