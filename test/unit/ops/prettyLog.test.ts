import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { createLogger } from '../../../src/ops/log.js';
import { prettyDestination, prettyLine } from '../../../src/ops/prettyLog.js';
import { REDACTED, Redactor } from '../../../src/ops/redact.js';
import { startupScreen } from '../../../src/ops/startupScreen.js';

const API_KEY = 'jup_live_7f3a9c2e4b1d8f6a0e5c';

function pretty(colour: boolean, redactor?: Redactor): { log: ReturnType<typeof createLogger>; text: () => string } {
  let text = '';
  const log = createLogger({
    clock: new ManualClock(Date.UTC(2026, 0, 5, 8, 0, 0)),
    ...(redactor ? { redactor } : {}),
    destination: prettyDestination((t) => (text += t), { colour }),
  });
  return { log, text: () => text };
}

describe('pretty log lines', () => {
  it('time, level and message; the structured fields stay out of sight', () => {
    const { log, text } = pretty(false);
    log.info({ in: { mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', amount: '20000000' } }, 'dca-jup: bought 25.0244 JUP for 20 USDC');
    log.warn({ problems: ['a.yaml:1:1: missing required key "sell"', 'a.yaml:1:1: missing required key "amount"'] }, 'strategy file rejected');
    expect(text()).toBe(
      [
        '2026-01-05 08:00:00 INFO  dca-jup: bought 25.0244 JUP for 20 USDC',
        '2026-01-05 08:00:00 WARN  strategy file rejected',
        '    a.yaml:1:1: missing required key "sell"',
        '    a.yaml:1:1: missing required key "amount"',
        '',
      ].join('\n'),
    );
  });

  it('an error: its message under the line when the line does not say it, its stack at error level, colours by level', () => {
    const { log, text } = pretty(true);
    const error = new Error('database is locked');
    log.error({ err: error }, 'tick failed; the next tick runs as usual');
    log.warn({ err: new Error('connection reset') }, 'feed prices poll failed: connection reset');
    const lines = text().split('\n');
    expect(lines[0]).toBe('\u001b[2m2026-01-05 08:00:00\u001b[0m \u001b[31mERROR\u001b[0m tick failed; the next tick runs as usual');
    expect(lines[1]).toBe('    \u001b[2merror: database is locked\u001b[0m');
    expect(lines[2]?.startsWith('    \u001b[2mat ')).toBe(true);
    expect(lines[2]).toContain('prettyLog.test.ts');
    const warn = lines.findIndex((l) => l.includes('WARN'));
    // The warning already quotes its error, and a warning has no stack: one line.
    expect(lines[warn]).toContain('\u001b[33mWARN \u001b[0m feed prices poll failed: connection reset');
    expect(lines[warn + 1]).toBe('');
  });

  it('prints what pino wrote, so a secret scrubbed from JSON is scrubbed here too', () => {
    const redactor = new Redactor();
    redactor.add(API_KEY);
    const { log, text } = pretty(false, redactor);
    log.error({ err: new Error(`login with ${API_KEY} refused`) }, 'login failed');
    expect(text()).not.toContain(API_KEY);
    expect(text()).toContain(`login with ${REDACTED} refused`);
  });

  it('a line that is not JSON passes through unchanged', () => {
    expect(prettyLine('not json', { colour: false })).toBe('not json\n');
  });
});

describe('startup screen', () => {
  const config = (text: string) =>
    parseConfigText(
      text,
      '/etc/jupbot/jupbot.yaml',
      { JUPBOT_KEYPAIR: bs58.encode(Keypair.generate().secretKey), JUPITER_API_KEY: 'a-live-api-key-123' },
      '/etc/jupbot',
    );

  it('live mode: real funds said plainly, the hosts it talks to, the rejected file and why', () => {
    const screen = startupScreen({
      version: '1.2.3',
      node: 'v20.19.0',
      schemaVersion: 4,
      config: config('mode: live\ndata_dir: /var/lib/jupbot\nstrategies_dir: /etc/jupbot/strategies\nrpc:\n  url: https://rpc.example.com/abc\n'),
      wallet: 'Wa11et1111111111111111111111111111111111111',
      simulator: null,
      database: '/var/lib/jupbot/jupbot.sqlite',
      opsUrl: 'http://127.0.0.1:9464',
      strategies: Array.from({ length: 14 }, (_, i) => `s${i}`),
      rejected: [{ file: 'strategies/tp.yaml', problem: 'strategies/tp.yaml:4:3: `sell` must be a token', kept: 'tp' }],
    });
    expect(screen.headline).toBe(
      'jupbot started in LIVE mode: trading real funds from wallet Wa11et1111111111111111111111111111111111111 on Solana via rpc.example.com and Jupiter at api.jup.ag (config /etc/jupbot/jupbot.yaml)',
    );
    expect(screen.lines).toEqual([
      'version     jupbot 1.2.3, node v20.19.0, database schema 4',
      'wallet      Wa11et1111111111111111111111111111111111111 (REAL FUNDS)',
      'network     Solana RPC rpc.example.com, Jupiter API api.jup.ag',
      'config      /etc/jupbot/jupbot.yaml',
      'database    /var/lib/jupbot/jupbot.sqlite',
      'ops         http://127.0.0.1:9464/status, /metrics, /healthz, /readyz; the live report at http://127.0.0.1:9464/',
      'strategies  14 running: s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, … (2 more)',
      '            rejected: strategies/tp.yaml:4:3: `sell` must be a token (the previous version of tp keeps running)',
      'next        `jupbot status` says how it is doing; `jupbot report` shows trades and P&L; docs/operations.md explains the rest',
    ]);
  });
});
