/**
 * `jupbot run` as a real child process, so SIGKILL kills it the way a power cut or the OOM killer would: no handler, no flush, no stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { TypedEmitter } from '../../../src/typedEmitter.js';
import { repoRoot } from '../../support/cli.js';

/** One pino JSON line of the daemon's stdout (the fields the test reads). */
export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [key: string]: unknown;
}

export interface DaemonProcessEvents {
  line: LogLine;
  exit: { code: number | null; signal: NodeJS.Signals | null };
}

export interface DaemonProcess {
  readonly pid: number;
  readonly events: TypedEmitter<DaemonProcessEvents>;
  /** Every stdout line so far (JSON lines; others kept as `{ level: 0, msg }`). */
  readonly lines: LogLine[];
  /** Everything written to stderr (a crash trace, tsx errors). */
  stderr(): string;
  /** Settles when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** True once the process has exited. */
  readonly dead: () => boolean;
  kill(signal: NodeJS.Signals): void;
  /** Resolves with the first line (past or future) that satisfies `predicate`; rejects if the process exits first. */
  waitForLine(predicate: (line: LogLine) => boolean, what: string): Promise<LogLine>;
}

/** Daemons started and not yet exited, so a failed test can stop them (by their own handle). */
const running = new Set<ChildProcess>();

export function killRunningDaemons(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** Starts `jupbot run --config configFile --skip-preflight`; `entry` is node's arguments before `run` (see daemonEntry.ts). */
export function spawnDaemon(entry: readonly string[], configFile: string, env: Record<string, string>): DaemonProcess {
  // A live start of a new data directory needs a preflight; this one is about crashes, not going live.
  const child: ChildProcess = spawn(process.execPath, [...entry, 'run', '--config', configFile, '--skip-preflight'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('could not start the daemon process');
  running.add(child);
  const events = new TypedEmitter<DaemonProcessEvents>();
  const lines: LogLine[] = [];
  let stderr = '';
  let exit: DaemonProcessEvents['exit'] | undefined;
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      line = { level: 0, msg: text };
    }
    lines.push(line);
    events.emit('line', line);
  });
  const exited = new Promise<DaemonProcessEvents['exit']>((resolve) => {
    // 'close', not 'exit': stdout is drained by then, so no line is lost after the exit.
    child.once('close', (code, signal) => {
      running.delete(child);
      exit = { code, signal };
      events.emit('exit', exit);
      resolve(exit);
    });
  });
  return {
    pid: child.pid,
    events,
    lines,
    stderr: () => stderr,
    exited,
    dead: () => exit !== undefined,
    kill: (signal) => {
      if (exit === undefined) child.kill(signal);
    },
    waitForLine(predicate, what) {
      const found = lines.find(predicate);
      if (found) return Promise.resolve(found);
      if (exit !== undefined) return Promise.reject(new Error(`daemon already exited (code ${exit.code}, signal ${exit.signal}) before ${what}`));
      return new Promise((resolve, reject) => {
        const offLine = events.on('line', (line) => {
          if (!predicate(line)) return;
          offLine();
          offExit();
          resolve(line);
        });
        const offExit = events.on('exit', ({ code, signal }) => {
          offLine();
          offExit();
          reject(
            new Error(
              `daemon exited (code ${code}, signal ${signal}) before ${what}; stderr:\n${stderr.slice(-2000)}\nlast lines:\n${lines
                .slice(-10)
                .map((l) => JSON.stringify(l))
                .join('\n')}`,
            ),
          );
        });
      });
    },
  };
}
