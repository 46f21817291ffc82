/**
 * `jupbot audit orders`: every Trigger order the daemon placed or adopted, with its current state and
 * the events of its life (placed, adopted, patched, renewed, filled, cancelled, expired, completed),
 * oldest first. Read-only.
 */
import { Command } from 'commander';
import { orderViews } from '../audit/orderViews.js';
import type { ResolveDb } from './auditDatabase.js';
import { unverifiedBanner, withVerifiedAuditDb } from './verifiedFigures.js';
import type { CliContext } from './context.js';
import { renderTable } from './table.js';

export function ordersSubcommand(ctx: CliContext, resolveDb: ResolveDb): Command {
  return new Command('orders')
    .description('Trigger price and DCA orders: state, amounts, trigger, and the events of each, oldest first')
    .option('--json', 'every order with every event')
    .option('--strategy <name>', 'only this strategy')
    .action(async (options: { json?: true; strategy?: string }, command: Command) => {
      await withVerifiedAuditDb(ctx, resolveDb, command, (db, verification) => {
        const orders = orderViews(db, options.strategy);
        if (options.json) ctx.stdout(`${JSON.stringify(orders, null, 2)}\n`);
        else if (orders.length === 0) ctx.stdout(`${unverifiedBanner(verification)}no orders\n`);
        else {
          const rows = orders.map((o) => [
            o.id.length > 12 ? `${o.id.slice(0, 12)}…` : o.id,
            `${o.family} ${o.orderType}`,
            o.adopted ? '(adopted)' : (o.strategy ?? ''),
            o.state,
            `${o.input.amount} ${o.input.symbol} → ${o.output.symbol}`,
            o.triggerPriceUsd === null ? '—' : `$${o.triggerPriceUsd}`,
            o.events.map((e) => e.event).join(', ') || '—',
          ]);
          ctx.stdout(unverifiedBanner(verification) + renderTable(['order', 'type', 'strategy', 'state', 'amount', 'trigger', 'events'], rows));
        }
      });
    });
}
