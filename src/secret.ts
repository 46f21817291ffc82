import { inspect } from 'node:util';

const REDACTED = '[redacted]';

/**
 * A value that must never be printed: an API key, a private key, a JWT, a webhook URL.
 *
 * Every way JavaScript turns an object into text (String(), template literals, JSON.stringify,
 * util.inspect, console.log, pino) yields `[redacted]`. The value sits in a private field, so it is
 * not an own enumerable property either: spreading, Object.entries and structuredClone do not
 * copy it. The one way to read it is {@link Secret.reveal}, which makes each use greppable.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The secret itself. Call it only where the value leaves for its one legitimate use. */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [Symbol.toPrimitive](): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }

  get [Symbol.toStringTag](): string {
    return 'Secret';
  }
}
