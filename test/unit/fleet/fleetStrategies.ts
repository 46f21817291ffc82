/**
 * What every daemon of the fleet tests runs: swaps on a schedule (so each daemon quotes and executes
 * every minute or two) on several tokens, and prices polled fast enough that each daemon alone
 * wants more than its third of the key's quota.
 */

const dca = (name: string, token: string, cron: string): string => `name: ${name}
kind: dca
buy: ${token}
pay_with: USDC
amount: "2"
execution: swap
schedule:
  cron: "${cron}"
  timezone: UTC
min_interval: 1m
max_runs_per_day: 1440
`;

export const FLEET_STRATEGIES: Readonly<Record<string, string>> = {
  'dca-sol.yaml': dca('dca-sol', 'SOL', '*/2 * * * *'),
  'dca-jup.yaml': dca('dca-jup', 'JUP', '1-59/2 * * * *'),
  'dca-bonk.yaml': dca('dca-bonk', 'BONK', '*/3 * * * *'),
};

/** The key's main-bucket quota at the gateway, per 60 s: each daemon's limiter believes it has it all. */
export const QUOTA = 60;

/**
 * Prices every 2 s: 30 polls a minute per daemon, against a third of the quota (20); the plan's
 * rate (1 request a second) is the quota the gateway enforces.
 */
export const FLEET_CONFIG: readonly string[] = ['poll: { prices: 2s, strategies: 30s }', 'api: { requests_per_second: 1 }'];
