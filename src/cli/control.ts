/**
 * `jupbot halt`, `jupbot resume [NAME]`, `jupbot pause NAME`: the operator's hands on the wheel
 * (src/control/controlCommand.ts does the work, with or without a running daemon). Each says what
 * the state is now; a halt that cancels or sells says what is left.
 */
import { userInfo } from 'node:os';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config/loadConfig.js';
import { parseDuration } from '../config/duration.js';
import { type ControlOutcome, nothingLeft, runControlCommand } from '../control/controlCommand.js';
import type { ControlLeft, ControlRequest } from '../control/controlProtocol.js';
import type { ControlStatus } from '../control/controlState.js';
import { errorMessage } from '../errors.js';
import { strategyNameSchema } from '../strategies/strategyFields.js';
import { ExitCode } from '../exitCodes.js';
import { createLogger } from '../ops/log.js';
import { configRedactor } from '../ops/configRedactor.js';
import { paperClock } from '../paper/paperClock.js';
import { CliExit, type CliContext } from './context.js';

const DEFAULT_WAIT = '5m';

interface CommonOptions {
  readonly config?: string;
  readonly reason?: string;
}

/** Who asked, as the audit log records it. */
function whoAsks(): string {
  try {
    const user = userInfo();
    return `${user.username} (uid ${user.uid})`;
  } catch {
    return 'unknown user';
  }
}

const durationArg = (text: string): number => {
  try {
    return text === '0' ? 0 : parseDuration(text);
  } catch (error) {
    throw new InvalidArgumentError(errorMessage(error));
  }
};

async function act(ctx: CliContext, options: CommonOptions & { wait?: number }, request: Exclude<ControlRequest, { command: 'status' }>): Promise<void> {
  const where = { ...(options.config === undefined ? {} : { file: options.config }), env: ctx.env, cwd: ctx.cwd };
  // Read for its paths and mode only: reaching the daemon or the database needs no secret.
  const config = await loadConfig({ ...where, purpose: 'read' });
  // The daemon's time: paper mode's scaled clock, so what is recorded reads like the daemon's own rows.
  const clock = config.mode === 'paper' ? paperClock(ctx.clock, config) : ctx.clock;
  const outcome = await runControlCommand(request, {
    config,
    clock,
    async forRun() {
      const full = await loadConfig(where);
      const redactor = configRedactor(full);
      return { config: full, redactor, log: createLogger({ level: full.log.level, redactor, clock, destination: { write: (line) => ctx.stderr(line) } }) };
    },
    waitMs: options.wait ?? parseDuration(DEFAULT_WAIT),
    say: (line) => ctx.stdout(`${line}\n`),
  });
  if (outcome.via === 'unreachable') throw new CliExit(ExitCode.DaemonUnreachable, `jupbot: ${outcome.message}`);
  if (outcome.via === 'refused') throw new CliExit(ExitCode.InvalidInput, `jupbot: ${outcome.message}`);
  ctx.stdout(`${outcomeText(request, outcome)}\n`);
  if (!outcome.done) throw new CliExit(ExitCode.ControlUnfinished);
}

function statusText(status: ControlStatus): string {
  const iso = (ms: number): string => new Date(ms).toISOString();
  const lines: string[] = [];
  const h = status.halted;
  if (h === null) lines.push('not halted: strategies decide');
  else {
    const doing = [h.cancelOrders ? 'cancelling every order' : '', h.closePositions ? 'selling every position' : ''].filter((t) => t !== '');
    lines.push(`HALTED since ${iso(h.since)} by ${h.by}: ${h.reason}${doing.length > 0 ? `; ${doing.join(', ')}` : ''}`);
  }
  for (const p of status.paused) lines.push(`paused: ${p.strategy} since ${iso(p.since)} by ${p.by}: ${p.reason}`);
  return lines.join('\n');
}

function leftText(left: ControlLeft, positions: boolean): string {
  const parts = [
    left.orders > 0 ? `${left.orders} order(s) live` : '',
    left.placements > 0 ? `${left.placements} placement(s) on their way` : '',
    left.cancels > 0 ? `${left.cancels} cancel(s) in flight` : '',
    !positions ? '' : left.positions === null ? 'positions not read yet' : left.positions > 0 ? `${left.positions} position(s) held` : '',
    left.sales > 0 ? `${left.sales} sale(s) in flight` : '',
    positions && left.selling > 0 ? `${left.selling} position(s) with a sale already in flight` : '',
  ].filter((t) => t !== '');
  return parts.join(', ');
}

/** The positions a halt leaves unsold because they cannot be sold now; null when none. */
function unsellableText(left: ControlLeft): string | null {
  const parts = [
    left.claimable > 0
      ? `${left.claimable} settled and claimable (a halt does not claim: claiming is a strategy's, with claim_when_settled, or a later matter)`
      : '',
    left.closed > 0 ? `${left.closed} in a market that is not open (nothing to sell into)` : '',
  ].filter((t) => t !== '');
  return parts.length === 0 ? null : `left unsold, cannot be sold now: ${parts.join('; ')}`;
}

function outcomeText(request: ControlRequest, outcome: Extract<ControlOutcome, { via: 'daemon' | 'database' }>): string {
  const where = outcome.via === 'daemon' ? 'the running daemon' : 'the database (no daemon is running; the next start follows it)';
  const lines = [`${outcome.changed ? 'recorded by' : 'nothing to change, as told by'} ${where}`, statusText(outcome.status)];
  if (outcome.cleared !== undefined)
    lines.push(outcome.cleared.length === 0 ? 'no protection had tripped' : `protections cleared: ${outcome.cleared.join(', ')}`);
  if ('strategy' in request && outcome.strategies !== null && !outcome.strategies.includes(request.strategy))
    lines.push(`note: no loaded strategy is named ${request.strategy}`);
  const h = outcome.status.halted;
  if (outcome.left === null && outcome.via === 'database' && h !== null && (h.cancelOrders || h.closePositions))
    lines.push('not waited for: the next start of the daemon cancels and sells before anything else');
  // What a cancelling halt has left is the halt's answer; a pause or resume meanwhile does not wait for it.
  if (request.command === 'halt' && outcome.left !== null && h !== null && (h.cancelOrders || h.closePositions)) {
    const left = leftText(outcome.left, h.closePositions);
    if (nothingLeft(outcome.left, outcome.status))
      lines.push(
        !h.closePositions
          ? 'nothing left: no live order of ours'
          : unsellableText(outcome.left) === null
            ? 'nothing left: no live order of ours, no position held'
            : 'nothing left to do: no live order of ours, no position that can be sold now',
      );
    else if (outcome.done) lines.push(`left now: ${left}; not waited for (--wait 0): jupbot status shows the cancels`);
    else lines.push(`still left: ${left}; the halt stands and its cancels go on (jupbot status shows them)`);
    const unsellable = h.closePositions ? unsellableText(outcome.left) : null;
    if (unsellable !== null) lines.push(unsellable);
  }
  return lines.join('\n');
}

/** A strategy name as strategy files spell it: a typo of another shape is a usage error, not a recorded pause. */
const strategyArg = (text: string): string => {
  const parsed = strategyNameSchema.safeParse(text);
  if (!parsed.success) throw new InvalidArgumentError(`not a strategy name: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
};

const configOption = (command: Command): Command => command.option('--config <file>', 'config file (default: $JUPBOT_CONFIG, else config/default.yaml)');

export function haltCommand(ctx: CliContext): Command {
  return configOption(
    new Command('halt')
      .description('stop every strategy from deciding (kept across restarts); optionally cancel every order and sell every position')
      .option('--cancel-orders', 'cancel every live vault and DCA order of ours and withdraw its funds')
      .option('--close-positions', 'sell every prediction position the wallet holds')
      .option('--reason <text>', 'why, for the audit log', 'halted by the operator')
      .option('--wait <duration>', `with --cancel-orders or --close-positions: how long to wait for nothing to be left (0: do not wait)`, durationArg),
  ).action(async (options: CommonOptions & { cancelOrders?: boolean; closePositions?: boolean; wait?: number }) => {
    await act(ctx, options, {
      command: 'halt',
      by: whoAsks(),
      reason: options.reason ?? 'halted by the operator',
      cancelOrders: options.cancelOrders === true,
      closePositions: options.closePositions === true,
    });
  });
}

export function resumeCommand(ctx: CliContext): Command {
  return configOption(
    new Command('resume')
      .description('lift the halt, or with NAME resume one paused strategy')
      .argument('[name]', 'a paused strategy', strategyArg)
      .option('--protections', 'also clear every account-wide protection that tripped (a drawdown clears only this way)'),
  ).action(async (name: string | undefined, options: CommonOptions & { protections?: boolean }) => {
    if (name !== undefined && options.protections === true)
      throw new CliExit(ExitCode.Usage, 'jupbot: --protections clears account-wide protections: use it with `jupbot resume`, not with a strategy name');
    await act(
      ctx,
      options,
      name === undefined
        ? { command: 'resume', by: whoAsks(), ...(options.protections === true ? { protections: true } : {}) }
        : { command: 'resume-strategy', strategy: name, by: whoAsks() },
    );
  });
}

export function pauseCommand(ctx: CliContext): Command {
  return configOption(
    new Command('pause')
      .description('stop one strategy from deciding (kept across restarts); its orders keep working')
      .argument('<name>', 'the strategy', strategyArg)
      .option('--reason <text>', 'why, for the audit log', 'paused by the operator'),
  ).action(async (name: string, options: CommonOptions) => {
    await act(ctx, options, { command: 'pause', strategy: name, by: whoAsks(), reason: options.reason ?? 'paused by the operator' });
  });
}
