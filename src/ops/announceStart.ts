/**
 * The start, as the operator reads it: the startup screen (startupScreen.ts) logged as one entry,
 * and a warning when the operations endpoints listen beyond this machine.
 */
import { isLoopbackHost } from '../config/fieldSchemas.js';
import type { Logger } from './log.js';
import { startupScreen, type StartupFacts } from './startupScreen.js';

export function announceStart(log: Logger, facts: StartupFacts & { readonly instanceId: string }): void {
  const { config } = facts;
  const screen = startupScreen(facts);
  log.info(
    {
      mode: config.mode,
      instance: facts.instanceId,
      wallet: facts.wallet,
      database: facts.database,
      ops: facts.opsUrl,
      schemaVersion: facts.schemaVersion,
      simulator: facts.simulator,
      config: config.source.file,
      screen: screen.lines,
    },
    screen.headline,
  );
  if (!isLoopbackHost(config.http.listen.host)) {
    log.warn(
      { listen: `${config.http.listen.host}:${config.http.listen.port}` },
      `ops endpoints listen on ${facts.opsUrl}, beyond this machine (http.allow_remote): /status and /metrics have no authentication`,
    );
  }
}
