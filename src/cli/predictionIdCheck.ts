/**
 * Whether the prediction markets and events strategies name exist, asked of the configured API
 * (`jupbot validate` fails on one that does not; `jupbot plan` shows its rules waiting). A market is
 * one `GET /markets/{id}`, an event one `GET /events/{id}`; 404 means unknown. Only then are
 * did-you-mean candidates looked for: the API's search for the id, and the first page of events
 * with their markets (two calls at most per unknown id, one of them shared). Without the API (no
 * key, no answer) nothing is judged: the caller says the ids were not checked.
 */
import type { Config } from '../config/config.js';
import type { Diagnostic } from '../config/diagnostics.js';
import { didYouMean } from '../config/didYouMean.js';
import { diagnosticAt, parseYamlSource } from '../config/yamlSource.js';
import { PredictionApiError } from '../jupiter/errors.js';
import { getEvent, getMarket, listEvents, searchEvents, type Event } from '../jupiter/prediction.js';
import type { JupiterClient } from '../jupiter/transport.js';
import type { StrategyFileText } from '../strategies/loadStrategies.js';
import type { FileOutcome } from '../strategies/loadStrategies.js';
import type { PredictionExitSpec } from '../strategies/predictionExitSchema.js';
import type { CliContext } from './context.js';
import { apiFailure, openPredictionApi } from './predictionApi.js';

export interface IdCheck {
  /** `file:line:col` problems: an unknown id, a market that is not in the event named with it. */
  readonly diagnostics: readonly Diagnostic[];
  readonly unknownMarkets: ReadonlySet<string>;
  readonly unknownEvents: ReadonlySet<string>;
  /** Why the ids were not checked (no API key, no answer), or null when they were (or none is named). */
  readonly unchecked: string | null;
}

interface Target {
  readonly file: string;
  readonly text: string;
  readonly spec: PredictionExitSpec;
}

const NOTHING: IdCheck = { diagnostics: [], unknownMarkets: new Set(), unknownEvents: new Set(), unchecked: null };

/** The prediction-exit files of a load that name a market or an event. */
function targetsOf(outcomes: readonly FileOutcome[], files: readonly StrategyFileText[]): Target[] {
  const texts = new Map(files.map((f) => [f.file, f.text]));
  const out: Target[] = [];
  for (const o of outcomes) {
    const spec = o.spec;
    const text = texts.get(o.file);
    if (spec?.kind !== 'prediction-exit' || text === undefined) continue;
    if (spec.positions.market !== undefined || spec.positions.event !== undefined) out.push({ file: o.file, text, spec });
  }
  return out;
}

/** Checks the ids the loaded files name against the API `config` points at. Asks nothing when none is named. */
export async function checkPredictionIds(
  config: Config | undefined,
  ctx: CliContext,
  outcomes: readonly FileOutcome[],
  files: readonly StrategyFileText[],
): Promise<IdCheck> {
  const targets = targetsOf(outcomes, files);
  if (targets.length === 0) return NOTHING;
  if (config === undefined) return { ...NOTHING, unchecked: 'the config has problems, so which API to ask is not known' };
  const api = await openPredictionApi(config, ctx);
  if (!api.ok) return { ...NOTHING, unchecked: api.reason };
  const place = api.mode === 'paper' ? 'in the paper world' : `on ${api.where}`;
  try {
    return await check(api.client, targets, place);
  } catch (error) {
    const line = apiFailure(error, api.where);
    if (line === undefined) throw error;
    return { ...NOTHING, unchecked: line };
  } finally {
    api.close();
  }
}

/** Resolves with the answer, or null when the API does not know the id; any other failure is thrown. */
async function orUnknown<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof PredictionApiError && error.code === 'PREDICTION_NOT_FOUND') return null;
    throw error;
  }
}

async function check(client: JupiterClient, targets: readonly Target[], place: string): Promise<IdCheck> {
  const marketIds = [...new Set(targets.flatMap((t) => t.spec.positions.market ?? []))].sort();
  const eventIds = [...new Set(targets.flatMap((t) => t.spec.positions.event ?? []))].sort();
  // One at a time: a Free key's quota is one call a second, and a person is waiting either way.
  const eventOfMarket = new Map<string, string | null>();
  const unknownMarkets = new Set<string>();
  for (const id of marketIds) {
    const market = await orUnknown(getMarket(client, { marketId: id }));
    if (market === null) unknownMarkets.add(id);
    else eventOfMarket.set(id, market.eventId ?? null);
  }
  const unknownEvents = new Set<string>();
  for (const id of eventIds) if ((await orUnknown(getEvent(client, { eventId: id }))) === null) unknownEvents.add(id);

  const candidates = unknownMarkets.size + unknownEvents.size > 0 ? await candidateIds(client, [...unknownMarkets, ...unknownEvents]) : undefined;
  const diagnostics: Diagnostic[] = [];
  for (const t of targets) {
    const { market, event } = t.spec.positions;
    const source = parseYamlSource(t.text, t.file);
    if (market !== undefined && unknownMarkets.has(market))
      diagnostics.push(
        diagnosticAt(
          source,
          ['positions', 'market'],
          `positions.market: no such market "${market}" ${place}${didYouMean(market, candidates?.markets ?? [])}; jupbot markets search TEXT lists ids`,
        ),
      );
    if (event !== undefined && unknownEvents.has(event))
      diagnostics.push(
        diagnosticAt(
          source,
          ['positions', 'event'],
          `positions.event: no such event "${event}" ${place}${didYouMean(event, candidates?.events ?? [])}; jupbot events lists ids`,
        ),
      );
    const owner = market === undefined ? undefined : eventOfMarket.get(market);
    if (event !== undefined && !unknownEvents.has(event) && typeof owner === 'string' && owner !== event)
      diagnostics.push(
        diagnosticAt(
          source,
          ['positions', 'event'],
          `positions.event: market "${market}" belongs to event "${owner}", not "${event}": no position would match both`,
        ),
      );
  }
  return { diagnostics, unknownMarkets, unknownEvents, unchecked: null };
}

/**
 * Market and event ids close to look at for suggestions: what the API's search finds for each
 * unknown id, and the first page of events. A failure here only costs the suggestion.
 */
async function candidateIds(client: JupiterClient, unknown: readonly string[]): Promise<{ markets: string[]; events: string[] }> {
  const events: Event[] = [];
  const add = async (read: Promise<{ data: readonly Event[] }>): Promise<void> => {
    try {
      events.push(...(await read).data);
    } catch {
      // No suggestion then; the problem itself stands.
    }
  };
  await add(listEvents(client, { includeMarkets: true, start: 0, end: 100 }));
  for (const id of unknown) if (id.length <= 200) await add(searchEvents(client, { query: id, limit: 20 }));
  return { events: events.map((e) => e.eventId), markets: events.flatMap((e) => (e.markets ?? []).map((m) => m.marketId)) };
}
