/**
 * `jupbot fleet status`: every daemon of the fleet (config `fleet.name`) as the roster in Redis has
 * it — state, today's P&L, open orders, last fill, mode, wallet, host, version, the age of its last
 * heartbeat — and the fleet's total. Reads the config like `jupbot status` (no API key, no wallet
 * key); the Redis URL may come from `fleet.redis_env`. Exit 0 when every daemon is ok or cleanly
 * stopped, 9 when one is silent or unhealthy, 7 when Redis does not answer, 2 without a fleet.
 */
import { Command } from 'commander';
import type { Redis } from 'ioredis';
import { loadConfig } from '../config/loadConfig.js';
import { errorMessage } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import { redisLabel } from '../fleet/redisLabel.js';
import { type FleetDaemonJson, fleetStatus, type FleetStatusJson } from '../fleet/fleetStatus.js';
import { readRoster, type RosterReading } from '../fleet/rosterReader.js';
import type { Secret } from '../secret.js';
import { CliExit, type CliContext } from './context.js';
import { age } from './status.js';
import { dollars, iso } from './statusSections.js';
import { renderTable } from './table.js';

const short = (wallet: string): string => (wallet.length > 12 ? `${wallet.slice(0, 4)}…${wallet.slice(-4)}` : wallet);

function stateText(d: FleetDaemonJson): string {
  if (d.state !== 'unhealthy') return d.state;
  const reason = d.reason ?? 'not ready';
  return `unhealthy (${reason.length > 60 ? `${reason.slice(0, 59)}…` : reason})`;
}

/** The document for people: a heading, one row per daemon, what needs a look, the total. */
export function fleetStatusText(doc: FleetStatusJson): string {
  const t = doc.total;
  const out = [
    `fleet ${doc.fleet} (${doc.redis}) as of ${iso(Date.parse(doc.at))}: ${t.daemons} daemon${t.daemons === 1 ? '' : 's'}, ${t.ok} ok, ${t.unhealthy} unhealthy, ${t.silent} silent, ${t.stopped} stopped`,
    '',
  ];
  if (doc.daemons.length === 0) out.push(`no daemon has registered in fleet ${doc.fleet} in the last day\n`);
  else
    out.push(
      renderTable(
        ['state', 'wallet', 'mode', 'host', 'version', 'heartbeat', 'P&L today', 'open orders', 'last fill'],
        doc.daemons.map((d) => [
          stateText(d),
          short(d.wallet),
          d.mode,
          d.host,
          d.version,
          `${age(d.heartbeatAgeMs)} ago`,
          d.today.current ? dollars(d.today.realizedUsd) : `— (last: ${d.today.since.slice(0, 10)})`,
          String(d.openOrders),
          d.lastFill === null ? '—' : `${iso(Date.parse(d.lastFill.at))} ${d.lastFill.strategy ?? '(adopted)'}: ${d.lastFill.summary}`,
        ]),
        ['left', 'left', 'left', 'left', 'left', 'right', 'right', 'right', 'left'],
      ),
    );
  for (const d of doc.daemons) {
    const who = `${d.wallet} on ${d.host} (pid ${d.pid}, ${d.opsUrl})`;
    if (d.state === 'silent') out.push(`SILENT: ${who}: no heartbeat since ${iso(Date.parse(d.lastHeartbeat))}, expected every ${age(d.heartbeatMs)}`);
    if (d.state === 'unhealthy') out.push(`UNHEALTHY: ${who}: ${d.reason ?? 'not ready'}`);
    if (d.state === 'stopped') out.push(`stopped: ${who} at ${iso(d.stoppedAt === null ? null : Date.parse(d.stoppedAt))}`);
    if (d.control.halted !== null) out.push(`HALTED: ${who} since ${iso(d.control.halted.since)} by ${d.control.halted.by}: ${d.control.halted.reason}`);
    if (d.control.paused.length > 0) out.push(`PAUSED: ${who}: ${d.control.paused.join(', ')}`);
  }
  for (const u of doc.unreadable) out.push(`UNREADABLE: roster entry ${u.id}: ${u.problem}`);
  if (t.missing > 0)
    out.push(
      `MISSING: fleet.size is ${t.expected} but ${t.daemons} daemon${t.daemons === 1 ? ' is' : 's are'} listed: ${t.missing === 1 ? 'one has' : `${t.missing} have`} not registered, or ${t.missing === 1 ? 'its entry was' : 'their entries were'} lost with Redis's data (a daemon that died before Redis restarted is then absent, not silent)`,
    );
  const left = t.notToday > 0 ? ` (${t.notToday} daemon${t.notToday === 1 ? '' : 's'} with no figures of today left out)` : '';
  out.push(`fleet total: P&L today ${dollars(t.realizedUsd)}${left}, ${t.openOrders} open order${t.openOrders === 1 ? '' : 's'}`);
  return `${out.join('\n')}\n`;
}

/** The client once it is ready, or the error of its first attempt (no second try: one clear line beats a wait). */
async function connect(url: Secret): Promise<Redis> {
  // Imported here: every other command starts without loading the Redis client.
  const { openFleetRedis } = await import('../fleet/fleetRedis.js');
  const redis = openFleetRedis({ url });
  const failed = await new Promise<Error | null>((resolve) => {
    redis.once('ready', () => resolve(null));
    redis.once('error', (error: Error) => resolve(error));
  });
  // ioredis reports each further attempt as an error event: heard and dropped while it closes.
  redis.on('error', () => undefined);
  if (failed === null) return redis;
  redis.disconnect();
  throw failed;
}

function unreachable(url: Secret, error: unknown): CliExit {
  const code = (error as { code?: unknown }).code;
  const why = typeof code === 'string' ? code : errorMessage(error);
  const password = URL.canParse(url.reveal().trim()) ? new URL(url.reveal().trim()).password : '';
  const shown = password === '' ? why : why.split(password).join('***');
  return new CliExit(
    ExitCode.DaemonUnreachable,
    `cannot reach the fleet's Redis at ${redisLabel(url)} (${shown}): is it running, and is fleet.redis (or fleet.redis_env) right?`,
  );
}

export function fleetCommand(ctx: CliContext): Command {
  const fleet = new Command('fleet').description('the daemons sharing one Jupiter key (config fleet:)');
  fleet.addCommand(
    new Command('status')
      .description('every daemon of the fleet: state, P&L today, open orders, last fill, heartbeat; exit 9 when one is silent or unhealthy')
      .option('--config <file>', 'config file whose fleet: names the Redis and the fleet (default: $JUPBOT_CONFIG, else config/default.yaml)')
      .option('--json', 'the document (docs/operations.md lists its keys)')
      .action(async (options: { config?: string; json?: true }) => {
        const config = await loadConfig({ ...(options.config === undefined ? {} : { file: options.config }), env: ctx.env, cwd: ctx.cwd, purpose: 'read' });
        const url = config.fleet.redis;
        if (url === null)
          throw new CliExit(
            ExitCode.Usage,
            `no fleet in ${config.source.file}: set fleet.redis (or fleet.redis_env, with that variable set in this shell) to the Redis the daemons share`,
          );
        let reading: RosterReading;
        let redis: Redis | undefined;
        try {
          redis = await connect(url);
          reading = await readRoster(redis, config.fleet.name);
        } catch (error) {
          throw unreachable(url, error);
        } finally {
          redis?.disconnect();
        }
        const doc = fleetStatus(reading, { fleet: config.fleet.name, redis: redisLabel(url), now: ctx.clock.now(), size: config.fleet.size });
        ctx.stdout(options.json ? `${JSON.stringify(doc, null, 2)}\n` : fleetStatusText(doc));
        const { silent, unhealthy } = doc.total;
        const unreadable = doc.unreadable.length;
        const { missing } = doc.total;
        // An entry that does not read, or one that is not there, is a daemon nobody can vouch for: as degraded as a silent one.
        if (silent + unhealthy + unreadable + missing > 0)
          throw new CliExit(
            ExitCode.FleetDegraded,
            `jupbot: fleet ${doc.fleet}: ${silent} silent, ${unhealthy} unhealthy of ${doc.total.daemons} daemons${unreadable > 0 ? `, ${unreadable} unreadable entr${unreadable === 1 ? 'y' : 'ies'}` : ''}${missing > 0 ? `, ${missing} missing (fleet.size ${doc.total.expected})` : ''}`,
          );
      }),
  );
  return fleet;
}
