import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { Clock } from '../clock.js';
import { Redactor } from './redact.js';

export type { Logger } from 'pino';

export interface CreateLoggerOptions {
  /** pino level; default `info`. */
  level?: string;
  /**
   * Where JSON lines go; default stdout. Tests pass a stream and parse what was written; `jupbot run`
   * passes its output, or the pretty printer (prettyLog.ts) in front of it for a person at a terminal.
   */
  destination?: DestinationStream;
  /** Secret values to scrub. Share one Redactor with everything that registers secrets (config, wallet, session). */
  redactor?: Redactor;
  /** Timestamps come from the injected clock, so log lines in tests carry the manual time. */
  clock?: Clock;
  /**
   * A word every message starts with (`REHEARSAL`), so no line of a rehearsal can be read as one of
   * a daemon trading real funds, whichever way it is printed or grepped.
   */
  mark?: string | undefined;
}

/**
 * The daemon's logger: JSON lines, one per event, with every secret scrubbed by field name and by
 * value before serialisation (see {@link Redactor}). Messages are scrubbed too, since an error
 * message can quote a URL or a response body.
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const redactor = options.redactor ?? new Redactor();
  const clock = options.clock;
  const mark = options.mark;
  const config: LoggerOptions = {
    level: options.level ?? 'info',
    base: null,
    // The redactor has already turned every Error into { type, message, code, stack, cause }; pino's
    // own `err` serializer would take that plain copy for an error of class "Object".
    serializers: { err: (err: unknown) => err },
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => redactor.scrub(object) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        const scrubbed = args.map((arg) => (typeof arg === 'string' ? redactor.scrubText(arg) : arg));
        // The message is the first string argument: after the bindings object when there is one.
        const at = typeof scrubbed[0] === 'string' ? 0 : 1;
        if (mark !== undefined && typeof scrubbed[at] === 'string') scrubbed[at] = `${mark}: ${scrubbed[at]}`;
        method.apply(this, scrubbed as Parameters<typeof method>);
      },
    },
    ...(clock ? { timestamp: () => `,"time":${clock.now()}` } : {}),
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}
