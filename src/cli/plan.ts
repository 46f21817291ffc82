import { Command } from 'commander';
import { formatDiagnostic, sortDiagnostics } from '../config/diagnostics.js';
import { loadConfig } from '../config/loadConfig.js';
import { paperPrices } from '../sim/paperTokenSearch.js';
import { decide } from '../strategies/decide.js';
import { unknownIdHolds } from '../strategies/decidePredictionExit.js';
import { parseFixed } from '../money/decimal.js';
import { describeDecision, describeStrategy } from '../strategies/describeStrategy.js';
import type { LoadedStrategy } from '../strategies/loadedStrategy.js';
import type { Snapshot } from '../strategies/snapshot.js';
import type { CliContext } from './context.js';
import { CliExit } from './context.js';
import { ExitCode } from '../exitCodes.js';
import { checkPredictionIds } from './predictionIdCheck.js';
import { checkStrategies } from './strategyInputs.js';
import { overlapWarnings } from './overlapWarnings.js';
import { specAreas } from '../engine/areas/areaNeeds.js';

interface PlanOptions {
  config?: string;
}

/**
 * `jupbot plan [--config FILE] [PATH...]`: per strategy, in plain words, what it will do and on
 * what condition, then what decide() would ask for now. Acts on nothing and opens no database.
 * Paper mode evaluates against the simulator's starting prices with empty balances; live mode
 * describes the rules only (prices, balances and token pins live in the daemon). In both, the
 * prediction markets and events strategies name are asked of the configured API when it can be
 * asked: the rules of a strategy naming an unknown one are shown waiting, as the daemon would hold them.
 * Two enabled strategies managing the same token or positions are warned about on stderr.
 */
export function planCommand(ctx: CliContext): Command {
  return new Command('plan')
    .description('print what each strategy would do now and on what condition, without acting')
    .argument('[paths...]', 'strategy files or directories (default: strategies_dir from the config)')
    .option('-c, --config <file>', 'config file (default: $JUPBOT_CONFIG, else config/default.yaml)')
    .configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr })
    .action(async (paths: string[], options: PlanOptions) => {
      // Reads rules: no API key, wallet or network needed (without them the ids are not checked, and a note says so).
      const config = await loadConfig({ file: options.config, env: ctx.env, cwd: ctx.cwd, purpose: 'read' });
      const now = ctx.clock.now();
      const check = await checkStrategies(paths.length > 0 ? paths : [config.strategies_dir], ctx.cwd, config);
      // A market or event the API does not know: the daemon's rules would wait on it, and so says the plan.
      const ids = await checkPredictionIds(config, ctx, check.outcomes, check.files);
      const snapshot = config.mode === 'paper' ? { ...paperSnapshot(now), unknownMarkets: ids.unknownMarkets, unknownEvents: ids.unknownEvents } : undefined;
      const basis = snapshot
        ? 'paper mode: simulator starting prices; balances, orders and positions are not read, so they count as empty'
        : 'live mode: rules only; the daemon reads prices, balances and token pins';
      ctx.stdout(`plan at ${new Date(now).toISOString()} (${basis})\n`);
      if (ids.unchecked !== null) ctx.stdout(`note: prediction market and event ids not checked: ${ids.unchecked}\n`);
      for (const outcome of check.outcomes) {
        if (!outcome.spec) continue;
        const spec = outcome.spec;
        ctx.stdout(`\n${spec.name} (${spec.kind}${spec.enabled ? '' : ', disabled: acts on nothing'}) — ${outcome.file}\n`);
        const strategy = outcome.strategy;
        const price = strategy && snapshot ? tradedPrice(strategy, snapshot) : undefined;
        const lines = describeStrategy(spec, { now, ...(price === undefined ? {} : { priceUsd: price }) });
        const areas = specAreas(spec);
        // A key scoped without one of them (or a region that blocks one) pauses the strategy in the daemon.
        if (areas.length > 0) lines.push(`Jupiter API areas it needs: ${areas.join(', ')} (paused while the API key may not use one of them)`);
        if (strategy && snapshot && spec.enabled) lines.push(...describeDecision(decide(strategy, {}, snapshot, now)));
        else if (!snapshot && spec.kind === 'prediction-exit' && spec.enabled) {
          const holds = unknownIdHolds(spec, ids);
          if (holds.length > 0) lines.push(...describeDecision({ intents: [], holds }));
        }
        if (outcome.diagnostics.length > 0) lines.push('not runnable: see the problems on stderr');
        ctx.stdout(lines.map((line) => `  ${line}\n`).join(''));
      }
      // Two enabled strategies managing the same token or positions: a warning, the exit code unchanged.
      const overlaps = overlapWarnings(check.outcomes, new Set(ids.diagnostics.map((d) => d.file)));
      if (overlaps !== '') ctx.stderr(overlaps);
      const problems = sortDiagnostics([...check.missing, ...check.outcomes.flatMap((o) => o.diagnostics)]);
      if (problems.length > 0) {
        ctx.stderr(problems.map((d) => `${formatDiagnostic(d)}\n`).join(''));
        throw new CliExit(ExitCode.InvalidInput);
      }
      if (check.outcomes.length === 0) ctx.stdout('no strategy files\n');
    });
}

function paperSnapshot(now: number): Snapshot {
  const prices = new Map<string, { usd: bigint; at: number }>();
  for (const [mint, text] of paperPrices()) {
    const usd = parseFixed(text);
    if (usd !== undefined) prices.set(mint, { usd, at: now });
  }
  return {
    prices,
    balances: new Map(),
    vaultOrders: new Map(),
    positions: [],
    markets: new Map(),
    scores: new Map(),
    tradingActive: null,
    priceImpactBps: new Map(),
  };
}

function tradedPrice(strategy: LoadedStrategy, snapshot: Snapshot): bigint | undefined {
  const token = strategy.tokens.sell ?? strategy.tokens.buy;
  return token ? snapshot.prices.get(token.mint)?.usd : undefined;
}
