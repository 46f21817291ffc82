/**
 * `jupbot status`: asks a running daemon how it is doing (its `/status`, at the config's
 * `http.listen` or `--url`) and prints it for people: a halt first, then mode, wallet, login, which
 * clock the times are on, the API areas (off ones with why), feeds with their age, strategies, the
 * balances with their dollar value, the open orders one per placement with each trigger's distance
 * from the price, the protections, the last fills, today's P&L and the unrealized P&L with its
 * basis (statusSections.ts). Every time in UTC, on the daemon's clock. `--json` prints the document
 * as served. No answer: one line saying where it asked and why nothing answered, exit 7.
 */
import { pendingFillWords, type PendingFillJson } from '../audit/trades.js';
import { Command } from 'commander';
import type { StatusFigures } from '../audit/statusFigures.js';
import { loadConfig } from '../config/loadConfig.js';
import { errorMessage } from '../errors.js';
import { ExitCode } from '../exitCodes.js';
import { CliExit, type CliContext } from './context.js';
import { renderTable } from './table.js';
import type { StatusOrderJson } from '../audit/statusOrders.js';
import type { UnrealizedJson } from '../audit/unrealizedFigures.js';
import type { BalancesJson, ClockJson } from '../ops/statusMarket.js';
import {
  balancesSection,
  clockLine,
  dollars,
  type ControlJson,
  haltLine,
  iso,
  ordersSection,
  pausedLines,
  type ProtectionJson,
  protectionsSection,
  unrealizedSection,
} from './statusSections.js';

/** How long an answer may take: the daemon renders `/status` from memory and a 10 s-old cache. */
const TIMEOUT_MS = 5_000;

interface Feed {
  readonly name: string;
  readonly ageMs: number | null;
  readonly fresh: boolean;
  readonly consecutiveFailures: number;
  readonly lastError: { readonly code: string; readonly message: string } | null;
  /** Why it sends nothing now (absent from daemons before areas were reported). */
  readonly paused?: string | null;
}

/** One API area as `/status` carries it (engine/areas/areaAccess.ts `AreaStatus`). */
interface AreaJson {
  readonly area: string;
  readonly on: boolean;
  readonly needed: boolean;
  readonly strategies: readonly string[];
  readonly offSince: number | null;
  readonly refusal: { readonly status: number; readonly message: string | null; readonly call: string } | null;
  readonly nextTryAt: number | null;
}

/** A fill as `/status` carries it (audit/trades.ts `tradeJson`), the fields printed here. */
interface FillJson {
  readonly at: string;
  readonly strategy: string | null;
  readonly side: string;
  readonly token: { readonly amount: string; readonly symbol: string };
  readonly counter: { readonly amount: string; readonly symbol: string };
}

interface StatusDocument extends Partial<Omit<StatusFigures, 'lastFills' | 'unrealized'>> {
  readonly lastFills?: readonly FillJson[];
  /** The keys below are absent from older daemons (and `control`, `protections` from ones without those parts). */
  readonly clock?: ClockJson;
  readonly balances?: BalancesJson;
  readonly orders?: readonly StatusOrderJson[];
  readonly unrealized?: UnrealizedJson;
  readonly control?: ControlJson;
  readonly protections?: readonly ProtectionJson[];
  readonly version: string;
  readonly mode: 'paper' | 'live' | 'rehearsal';
  readonly startedAt: number;
  readonly wallet: string;
  readonly simulator: { readonly url: string; readonly seed: string } | null;
  /** Absent from daemons before areas were reported. */
  readonly areas?: readonly AreaJson[];
  /** Null in a rehearsal: no key, no login. */
  readonly session: {
    readonly loggedIn: boolean;
    readonly expiresAt: number | null;
    readonly consecutiveFailures: number;
    readonly lastError: { readonly message: string } | null;
  } | null;
  readonly strategies: readonly { readonly name: string; readonly kind: string; readonly file: string }[];
  readonly pendingFills?: readonly PendingFillJson[];
  readonly feeds: readonly Feed[];
  readonly trading: {
    readonly ticks: number;
    readonly lastTickAt: number | null;
    readonly balances?: Feed;
    /** Each strategy's rules and whether it is degraded (absent from daemons before rules were reported). */
    readonly strategies?: Readonly<Record<string, StrategyHealthJson>>;
  };
}

interface StrategyHealthJson {
  readonly rules: readonly { readonly rule: string; readonly state: string; readonly why: string }[];
  readonly degraded: { readonly rule: string; readonly failures: number; readonly code: string | null; readonly protective: boolean } | null;
}

/** An age for people: 4s, 3m 10s, 2h 5m. */
export function age(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return 'never';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

function modeText(doc: StatusDocument): string {
  if (doc.mode === 'paper') return 'PAPER mode (simulated world' + (doc.simulator ? ` at ${doc.simulator.url}` : '') + ')';
  if (doc.mode === 'rehearsal') return 'REHEARSAL mode (real prices and transactions, nothing signed; fills in the rehearsal ledger)';
  return 'LIVE mode (real funds)';
}

/** The document as a page of plain text; `now` (the asker's clock) only when the daemon does not say its own. */
export function statusText(doc: StatusDocument, now: number): string {
  const out: string[] = [...haltLine(doc.control)];
  const areas = doc.areas ?? [];
  const trigger = areas.find((a) => a.area === 'trigger');
  const login =
    doc.session === null
      ? 'none: a rehearsal holds no key to log in with'
      : doc.session.loggedIn
        ? `logged in until ${iso(doc.session.expiresAt)}`
        : trigger && !trigger.on
          ? 'not attempted: the trigger area is off for this key'
          : trigger && !trigger.needed
            ? 'not needed (no loaded strategy uses vault orders)'
            : `NOT logged in (${doc.session.consecutiveFailures} failed: ${doc.session.lastError?.message ?? 'no attempt yet'})`;
  out.push(
    `jupbot ${doc.version}, ${modeText(doc)}, up since ${iso(doc.startedAt)}`,
    `wallet ${doc.wallet}; Trigger login: ${login}`,
    clockLine(doc.clock, doc.mode),
    ...pausedLines(doc.control),
  );
  if (areas.length > 0) {
    out.push(`Jupiter API areas: ${areas.map((a) => `${a.area} ${a.on ? (a.needed ? 'on' : 'not in use') : 'OFF'}`).join(', ')}`);
    for (const a of areas.filter((x) => !x.on && x.refusal !== null)) {
      const refusal = a.refusal as NonNullable<AreaJson['refusal']>;
      const next = a.needed ? `asked again at ${iso(a.nextTryAt)}` : 'not asked again while nothing needs it';
      out.push(
        `AREA OFF: ${a.area}: ${refusal.call} answered ${refusal.status}${refusal.message === null ? '' : ` "${refusal.message}"`} at ${iso(a.offSince)}; ${next}; ` +
          (a.strategies.length > 0 ? `paused: ${a.strategies.join(', ')}` : 'no loaded strategy needs it'),
      );
    }
  }
  out.push(`decide loop: ${doc.trading.ticks} ticks, last ${iso(doc.trading.lastTickAt)}`, '');
  const feeds = [...doc.feeds, ...(doc.trading.balances ? [doc.trading.balances] : [])];
  out.push(
    renderTable(
      ['feed', 'age', 'state'],
      feeds.map((f) => [
        f.name,
        age(f.ageMs),
        f.paused !== undefined && f.paused !== null
          ? `paused: ${f.paused}`.slice(0, 100)
          : f.fresh
            ? 'fresh'
            : f.consecutiveFailures > 0
              ? `STALE: ${f.consecutiveFailures} failed (${f.lastError?.code ?? '?'}: ${f.lastError?.message ?? ''})`.slice(0, 100)
              : 'STALE',
      ]),
      ['left', 'right', 'left'],
    ),
  );
  const legs = doc.openOrders ?? [];
  // One per placement (an OCO's two legs are one order); an older daemon serves the legs only.
  const perStrategy = (name: string): number => (doc.orders ?? legs).filter((o) => o.strategy === name).length;
  const lastFillOf = (name: string): string => {
    const fill = doc.lastFills?.find((f) => f.strategy === name);
    return fill === undefined ? '—' : iso(Date.parse(fill.at));
  };
  out.push(
    renderTable(
      ['strategy', 'kind', 'open orders', 'last fill (of the last shown)'],
      doc.strategies.map((s) => [s.name, s.kind, String(perStrategy(s.name)), lastFillOf(s.name)]),
      ['left', 'left', 'right', 'left'],
    ),
  );
  for (const p of doc.pendingFills ?? []) out.push(`WARNING: ${pendingFillWords(p)}`);
  const health = Object.entries(doc.trading.strategies ?? {});
  const degraded = health.filter(([, h]) => h.degraded !== null);
  for (const [name, h] of degraded) {
    const d = h.degraded as NonNullable<StrategyHealthJson['degraded']>;
    out.push(
      `DEGRADED: ${name}: rule ${d.rule} failed ${d.failures} times in a row (${d.code ?? 'no code'})${d.protective ? '; it protects a position and keeps trying' : ''}`,
    );
  }
  const rules = health.flatMap(([name, h]) =>
    h.rules.map((r) => [name, r.rule, r.state === 'waiting' ? 'armed, waiting' : r.state, r.state === 'paused' ? r.why : r.why.slice(0, 100)]),
  );
  if (rules.length > 0) out.push(renderTable(['strategy', 'rule', 'state', 'why'], rules, ['left', 'left', 'left', 'left']));
  const balances = balancesSection(doc.balances, doc.orders ?? []);
  if (balances !== '') out.push(balances);
  out.push(
    doc.orders !== undefined
      ? ordersSection(doc.orders)
      : legs.length === 0
        ? 'open orders: none\n'
        : renderTable(
            ['open order', 'strategy', 'type', 'state', 'selling', 'trigger'],
            legs.map((o) => [
              o.id.slice(0, 12),
              o.strategy ?? '(adopted)',
              `${o.family} ${o.orderType}`,
              o.state,
              `${o.input.remaining ?? o.input.amount} ${o.input.symbol}`,
              o.triggerPriceUsd ? `$${o.triggerPriceUsd}` : '—',
            ]),
            ['left', 'left', 'left', 'left', 'right', 'right'],
          ),
  );
  const fills = doc.lastFills ?? [];
  if (fills.length > 0) {
    const leg = (l: FillJson['token']): string => `${l.amount} ${l.symbol}`;
    out.push(
      renderTable(
        ['last fills', 'strategy', 'side', 'gave', 'got'],
        fills.map((f) => [
          iso(Date.parse(f.at)),
          f.strategy ?? '(adopted)',
          f.side,
          leg(f.side === 'buy' ? f.counter : f.token),
          leg(f.side === 'buy' ? f.token : f.counter),
        ]),
      ),
    );
  } else out.push('last fills: none\n');
  if (doc.today)
    out.push(
      `today (since ${iso(Date.parse(doc.today.since))}): ${doc.today.trades} trade${doc.today.trades === 1 ? '' : 's'}, realized P&L ${dollars(doc.today.realizedUsd)}, fees ${dollars(doc.today.feesUsd)}\n`,
    );
  const unrealized = unrealizedSection(doc.unrealized);
  if (unrealized !== '') out.push(unrealized);
  out.push(protectionsSection(doc.protections));
  out.push(`as of ${iso(doc.clock?.now ?? now)}; more: jupbot audit pnl, jupbot report --out report.html, docs/operations.md\n`);
  return out.join('\n');
}

export function statusCommand(ctx: CliContext): Command {
  return new Command('status')
    .description("how a running daemon is doing: its /status at the config's http.listen (or --url), for people")
    .option('--config <file>', 'config file whose http.listen names the daemon (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .option('--url <url>', 'the operations server to ask, e.g. http://127.0.0.1:9464 (instead of the config)')
    .option('--json', 'the /status document as the daemon serves it')
    .action(async (options: { config?: string; url?: string; json?: true }) => {
      let base = options.url;
      if (base === undefined) {
        const config = await loadConfig({ ...(options.config === undefined ? {} : { file: options.config }), env: ctx.env, cwd: ctx.cwd, purpose: 'read' });
        const { host, port } = config.http.listen;
        if (port === 0)
          throw new CliExit(ExitCode.Usage, `http.listen in ${config.source.file} has port 0 (any free port): pass the daemon's address as --url`);
        base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      }
      const url = `${base.replace(/\/+$/, '')}/status`;
      const abort = new AbortController();
      const timer = ctx.clock.sleep(TIMEOUT_MS, abort.signal).then(
        () => abort.abort(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)),
        () => undefined,
      );
      let doc: StatusDocument;
      try {
        const response = await fetch(url, { signal: abort.signal, headers: { accept: 'application/json' } });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        doc = (await response.json()) as StatusDocument;
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        throw new CliExit(
          ExitCode.DaemonUnreachable,
          `no jupbot answered at ${url} (${cause ?? errorMessage(error)}): is the daemon running, and is this its config (http.listen) or --url?`,
        );
      } finally {
        abort.abort(new Error('done'));
        await timer;
      }
      ctx.stdout(options.json ? `${JSON.stringify(doc, null, 2)}\n` : statusText(doc, ctx.clock.now()));
    });
}
