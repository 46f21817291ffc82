/**
 * Log lines for a person at a terminal: `2026-01-05 08:00:00 INFO  dca-jup: bought 25.0244 JUP …`,
 * the level coloured, an error's message (and its stack at error and fatal) on indented lines
 * below. The structured fields stay out of sight: they are for machines, which get JSON. Loaded
 * only when the output is pretty, so a daemon writing JSON never has this code in memory.
 *
 * It reads the JSON line pino has already written (scrubbed of secrets), so nothing reaches the
 * terminal that the JSON output would not carry.
 */

const LEVELS: Readonly<Record<string, { label: string; colour: string }>> = {
  trace: { label: 'TRACE', colour: '90' },
  debug: { label: 'DEBUG', colour: '90' },
  info: { label: 'INFO ', colour: '32' },
  warn: { label: 'WARN ', colour: '33' },
  error: { label: 'ERROR', colour: '31' },
  fatal: { label: 'FATAL', colour: '1;31' },
};

export interface PrettyOptions {
  /** ANSI colours (a terminal that shows them, NO_COLOR unset). */
  readonly colour: boolean;
}

interface LoggedError {
  readonly message?: unknown;
  readonly stack?: unknown;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** One JSON log line → one or more readable lines, each ending in a newline. */
export function prettyLine(json: string, options: PrettyOptions): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const paint = (code: string, text: string): string => (options.colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  const level = LEVELS[str(entry.level)] ?? { label: str(entry.level).toUpperCase().padEnd(5), colour: '0' };
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().replace('T', ' ').slice(0, 19) : '';
  const message = str(entry.msg);
  let out = `${paint('2', time)} ${paint(level.colour, level.label)} ${message}\n`;
  // Lines meant to be read under the message: the startup screen, every problem of a rejected file.
  if (Array.isArray(entry.screen)) for (const line of entry.screen) out += `    ${str(line)}\n`;
  if (Array.isArray(entry.problems)) for (const line of entry.problems) out += `    ${paint('2', str(line))}\n`;
  const err = entry.err as LoggedError | string | undefined;
  if (typeof err === 'string') {
    out += `    ${paint('2', err)}\n`;
  } else if (err && typeof err === 'object') {
    const errText = str(err.message);
    // The message usually quotes the error already; repeat it only when it adds something.
    if (errText && !message.includes(errText)) out += `    ${paint('2', `error: ${errText}`)}\n`;
    const stack = str(err.stack);
    if ((entry.level === 'error' || entry.level === 'fatal') && stack) {
      for (const frame of stack.split('\n').filter((l) => l.trimStart().startsWith('at '))) out += `    ${paint('2', frame.trim())}\n`;
    }
  }
  return out;
}

/** A pino destination that writes pretty lines through `write`. */
export function prettyDestination(write: (text: string) => void, options: PrettyOptions): { write: (line: string) => void } {
  return { write: (line) => write(prettyLine(line, options)) };
}
