/**
 * What an operator reads first when the daemon starts: one headline that cannot be mistaken (which
 * mode, real money or not) and a few lines under it: the wallet, what it talks to, where the
 * database is, where to ask it how it is doing, which strategies run and which were turned away
 * and why, and where to look next. Logged as one entry: the headline is the message, the lines
 * are the `screen` field (the pretty printer shows them under it; JSON keeps them as a list).
 */
import type { Config } from '../config/config.js';

export interface StartupFacts {
  readonly version: string;
  /** `process.version`. */
  readonly node: string;
  readonly schemaVersion: number;
  readonly config: Config;
  readonly wallet: string;
  /** The embedded simulator (paper mode), else null. */
  readonly simulator: { readonly url: string; readonly seed: string } | null;
  readonly database: string;
  readonly opsUrl: string;
  readonly strategies: readonly string[];
  readonly rejected: readonly { readonly file: string; readonly problem: string; readonly kept: string | null }[];
}

export interface StartupScreen {
  readonly headline: string;
  readonly lines: readonly string[];
}

/** At most this many strategy names are listed; the rest are counted. */
const NAMES_SHOWN = 12;

export function startupScreen(facts: StartupFacts): StartupScreen {
  const { config } = facts;
  const host = (url: string): string => new URL(url).host;
  const headline =
    config.mode === 'paper'
      ? `jupbot started in PAPER mode: paper wallet ${facts.wallet}, simulated Jupiter and Solana at ${facts.simulator?.url ?? '?'}; no real funds, nothing leaves this machine`
      : config.mode === 'rehearsal'
        ? `jupbot started in REHEARSAL mode: watching wallet ${facts.wallet} on Solana via ${host(config.rpc.url)} and Jupiter at ${host(config.api.base_url)}; real prices and transactions, nothing signed, fills in the rehearsal ledger only (config ${config.source.file})`
        : `jupbot started in LIVE mode: trading real funds from wallet ${facts.wallet} on Solana via ${host(config.rpc.url)} and Jupiter at ${host(config.api.base_url)} (config ${config.source.file})`;
  const row = (label: string, text: string): string => `${label.padEnd(11)} ${text}`;
  const names =
    facts.strategies.slice(0, NAMES_SHOWN).join(', ') + (facts.strategies.length > NAMES_SHOWN ? `, … (${facts.strategies.length - NAMES_SHOWN} more)` : '');
  const lines = [
    row('version', `jupbot ${facts.version}, node ${facts.node}, database schema ${facts.schemaVersion}`),
    row(
      'wallet',
      config.mode === 'paper'
        ? `${facts.wallet} (a paper wallet the simulator funded)`
        : config.mode === 'rehearsal'
          ? `${facts.wallet} (REHEARSAL: watch-only, no key; \`jupbot rehearsal summary\` tells what the guard made of Jupiter's transactions)`
          : `${facts.wallet} (REAL FUNDS)`,
    ),
    row(
      'network',
      facts.simulator
        ? `simulated Jupiter and Solana at ${facts.simulator.url} (seed ${facts.simulator.seed})`
        : `Solana RPC ${host(config.rpc.url)}, Jupiter API ${host(config.api.base_url)}`,
    ),
    row('config', config.source.file),
    row('database', facts.database),
    row('ops', `${facts.opsUrl}/status, /metrics, /healthz, /readyz; the live report at ${facts.opsUrl}/`),
    row('strategies', facts.strategies.length === 0 ? `none running: add a file to ${config.strategies_dir}` : `${facts.strategies.length} running: ${names}`),
    ...facts.rejected.map((r) => row('', `rejected: ${r.problem}${r.kept ? ` (the previous version of ${r.kept} keeps running)` : ''}`)),
    row('next', '`jupbot status` says how it is doing; `jupbot report` shows trades and P&L; docs/operations.md explains the rest'),
  ];
  return { headline, lines };
}
