/**
 * `jupbot markets search TEXT` and `jupbot events [--category C]`: prediction events and their
 * markets, with the ids a `prediction-exit` strategy names (`positions.market`, `positions.event`),
 * from the API the config points at (live: Jupiter with the key from `api.key_env`; paper: the
 * embedded simulator in process, the world the paper daemon trades). A table for people, `--json`
 * for scripts. When the API cannot be asked: one line saying where and why, exit 8.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig } from '../config/loadConfig.js';
import { ExitCode } from '../exitCodes.js';
import { listEvents, searchEvents } from '../jupiter/prediction.js';
import type { EventsQuery, EventsResponse } from '../jupiter/prediction.js';
import { CliExit, type CliContext } from './context.js';
import { apiFailure, openPredictionApi } from './predictionApi.js';
import { countText, eventJson, eventsTable, type EventJson } from './predictionListing.js';

const CATEGORIES = ['all', 'crypto', 'sports', 'politics', 'esports', 'culture', 'economics', 'tech'] as const;

interface ListingOptions {
  config?: string;
  json?: true;
  limit: number;
}

function limitOption(max: number): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < 1 || n > max) throw new InvalidArgumentError(`expected an integer from 1 to ${max}, got "${text}"`);
    return n;
  };
}

/** Asks the configured API, prints the answer; a call that fails ends the command with exit 8. */
async function list(
  ctx: CliContext,
  options: ListingOptions,
  ask: (client: Parameters<typeof listEvents>[0]) => Promise<EventsResponse>,
  empty: string,
): Promise<void> {
  const config = await loadConfig({ ...(options.config === undefined ? {} : { file: options.config }), env: ctx.env, cwd: ctx.cwd, purpose: 'read' });
  const api = await openPredictionApi(config, ctx);
  if (!api.ok) throw new CliExit(ExitCode.ApiUnreachable, `jupbot: cannot ask the prediction API: ${api.reason}`);
  let answer: EventsResponse;
  try {
    answer = await ask(api.client);
  } catch (error) {
    const line = apiFailure(error, api.where);
    if (line === undefined) throw error;
    throw new CliExit(ExitCode.ApiUnreachable, `jupbot: ${line}`);
  } finally {
    api.close();
  }
  const events: EventJson[] = answer.data.map(eventJson);
  if (options.json) {
    ctx.stdout(`${JSON.stringify({ source: api.where, events, more: answer.pagination?.hasNext ?? false }, null, 2)}\n`);
    return;
  }
  if (events.length === 0) {
    ctx.stdout(`${empty} (from ${api.where})\n`);
    return;
  }
  const more = answer.pagination?.hasNext ? `; more with a larger --limit` : '';
  ctx.stdout(`${eventsTable(events)}\n${countText(events)}, from ${api.where}${more}\n`);
}

export function marketsCommand(ctx: CliContext): Command {
  const search = new Command('search')
    .description('prediction markets whose event or market title contains TEXT, with their ids (for positions.market / positions.event)')
    .argument('<text...>', 'words to look for (joined with spaces)')
    .option('--limit <n>', 'at most this many events (1-20)', limitOption(20), 20)
    .option('--json', 'exact figures as JSON')
    .option('-c, --config <file>', 'config file (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .action(async (words: string[], options: ListingOptions) => {
      const query = words.join(' ').trim();
      if (query.length === 0 || query.length > 200)
        throw new CliExit(ExitCode.Usage, `jupbot markets search: TEXT must be 1 to 200 characters, got ${query.length}`);
      await list(ctx, options, (client) => searchEvents(client, { query, limit: options.limit }), `no event or market title contains "${query}"`);
    });
  return new Command('markets').description('prediction markets: find the ids strategies name').addCommand(search);
}

export function eventsCommand(ctx: CliContext): Command {
  return new Command('events')
    .description('prediction events and their markets, with their ids (for positions.event / positions.market)')
    .addOption(new Option('--category <name>', 'only this category').choices(CATEGORIES).default('all'))
    .option('--limit <n>', 'at most this many events (1-100)', limitOption(100), 20)
    .option('--json', 'exact figures as JSON')
    .option('-c, --config <file>', 'config file (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .action(async (options: ListingOptions & { category: NonNullable<EventsQuery['category']> }) => {
      const query: EventsQuery = { includeMarkets: true, category: options.category, start: 0, end: options.limit };
      await list(ctx, options, (client) => listEvents(client, query), `no event in category ${options.category}`);
    });
}
