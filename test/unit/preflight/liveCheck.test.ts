/**
 * `jupbot live check` over config/live.example.yaml, against the simulator standing in for Jupiter
 * and the node: what fails it, each as one line that says why and what to do, and that the verdict
 * is recorded either way.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/store/db.js';
import { repoRoot } from '../../support/cli.js';
import { API_KEY, liveWorkspace, type LiveWorkspace } from './liveWorkspace.js';

const CHECK = ['live', 'check', '--config', 'config/live.yaml'];

function verdicts(w: LiveWorkspace): { kind: string; failed: string[] }[] {
  const db = openDatabase(join(w.dataDir, 'jupbot-live.sqlite'), { readonly: true });
  try {
    return (db.prepare("SELECT kind, data FROM actions WHERE kind LIKE 'preflight.%' ORDER BY id").all() as { kind: string; data: string }[]).map((r) => ({
      kind: r.kind,
      failed: (JSON.parse(r.data) as { failed: string[] }).failed,
    }));
  } finally {
    db.close();
  }
}

const failedLines = (stdout: string): string[] => stdout.split('\n').filter((l) => l.startsWith('FAILED'));

describe('jupbot live check', () => {
  it('passes with a funded wallet and a strategy whose tokens the live search resolves', async () => {
    const w = liveWorkspace();
    copyFileSync(join(repoRoot, 'strategies', 'sol-dca-daily.yaml'), join(w.strategies, 'sol-dca-daily.yaml'));
    const check = await w.run(CHECK);
    expect([check.code, check.stderr]).toEqual([0, '']);
    expect(check.stdout).toContain('ok      api area tokens: the key may use token search and prices (needed by sol-dca-daily)');
    expect(check.stdout).toContain('ok      api area swap: the key may use swaps (needed by sol-dca-daily)');
    expect(check.stdout).toMatch(
      /^ok {6}strategy sol-dca-daily: strategies\.live\/sol-dca-daily\.yaml \(dca\); tokens: SOL So1+2, USDC EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v$/m,
    );
    expect(verdicts(w)).toEqual([{ kind: 'preflight.passed', failed: [] }]);
  });

  it("fails a market id Jupiter does not list (the demo strategy names the simulator's)", async () => {
    const w = liveWorkspace();
    copyFileSync(join(repoRoot, 'strategies', 'lakers-exit.yaml'), join(w.strategies, 'lakers-exit.yaml'));
    // Jupiter answers for the simulator's market as for any id it does not have.
    const unknown = await w.network('https://api.jup.ag/prediction/v1/markets/NBA-1001-M9', { headers: { 'x-api-key': API_KEY } });
    w.sim.control.injectFault({ path: '/prediction/v1/markets/NBA-1001-M1', kind: 'status', status: unknown.status, body: await unknown.json() });
    const check = await w.run(CHECK);
    expect(check.code).toBe(79);
    expect(failedLines(check.stdout)).toEqual([
      expect.stringMatching(
        /^FAILED {2}strategy lakers-exit: strategies\.live\/lakers-exit\.yaml:8:11: positions\.market: no such market "NBA-1001-M1" on https:\/\/api\.jup\.ag.*; fix the file, or move it out of strategies_dir$/,
      ),
    ]);
    expect(verdicts(w)).toEqual([{ kind: 'preflight.failed', failed: ['strategy lakers-exit'] }]);
  });

  it('fails an area the key may not use, naming the strategies that need it', async () => {
    const w = liveWorkspace();
    copyFileSync(join(repoRoot, 'strategies', 'lakers-exit.yaml'), join(w.strategies, 'lakers-exit.yaml'));
    w.sim.control.scopeKey(API_KEY, ['Swap', 'Tokens', 'Trigger']);
    const check = await w.run(CHECK);
    expect(check.code).toBe(79);
    expect(failedLines(check.stdout)[0]).toMatch(
      /^FAILED {2}api area prediction: the key may not use prediction markets \(needed by lakers-exit\): GET \/prediction\/v1\/trading-status → 403 JUPITER_FORBIDDEN: API key does not have access to this endpoint \(request id \w+\); enable that product for this key at https:\/\/portal\.jup\.ag, or remove the strategies that need it$/,
    );
    expect(verdicts(w)[0]?.failed).toContain('api area prediction');
  });

  it('fails without an API key, where validate only notes that the ids were not checked', async () => {
    const w = liveWorkspace();
    copyFileSync(join(repoRoot, 'strategies', 'lakers-exit.yaml'), join(w.strategies, 'lakers-exit.yaml'));
    const env = { JUPITER_API_KEY: '' };
    const validate = await w.run(['validate', '--config', 'config/live.yaml'], { env });
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('note: prediction market and event ids not checked: JUPITER_API_KEY is not set');
    const check = await w.run(CHECK, { env });
    expect(check.code).toBe(79);
    expect(failedLines(check.stdout)).toEqual([
      'FAILED  api key: JUPITER_API_KEY is not set, and live mode sends it with every call to https://api.jup.ag; set JUPITER_API_KEY to your key from https://portal.jup.ag (systemd: /etc/jupbot/secrets.env; Docker: -e JUPITER_API_KEY), or set api.keyless: true',
      'FAILED  strategy strategies.live/lakers-exit.yaml: not checked against the live token list and markets: no API key; set JUPITER_API_KEY',
    ]);
  });

  it('fails a wallet without SOL enough for fees, saying how much it holds', async () => {
    const w = liveWorkspace({ solLamports: 10_000_000n });
    const check = await w.run(CHECK);
    expect(check.code).toBe(79);
    expect(failedLines(check.stdout)).toEqual([
      `FAILED  funds: ${w.wallet} holds 0.01 SOL, less than the 0.05 SOL live trading needs for fees and new token accounts; no other token; send SOL to ${w.wallet}`,
    ]);
  });

  it('fails a node that serves another cluster than mainnet', async () => {
    const w = liveWorkspace();
    const devnet = 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG';
    w.sim.control.injectFault({ path: '/', rpcMethod: 'getGenesisHash', kind: 'status', status: 200, body: { jsonrpc: '2.0', id: 1, result: devnet } });
    const check = await w.run(CHECK);
    expect(check.code).toBe(79);
    expect(failedLines(check.stdout)).toEqual([
      'FAILED  rpc: https://api.mainnet-beta.solana.com serves devnet, and live mode trades on mainnet-beta; set rpc.url to a mainnet-beta node',
    ]);
  });

  it('fails a key file others may read, and a data directory others may read', async () => {
    const w = liveWorkspace();
    const { chmodSync, mkdirSync } = await import('node:fs');
    chmodSync(join(w.env.HOME as string, '.config', 'solana', 'id.json'), 0o644);
    mkdirSync(w.dataDir, { mode: 0o755 });
    chmodSync(w.dataDir, 0o755);
    writeFileSync(join(w.strategies, 'notes.txt'), 'not a strategy');
    const check = await w.run(CHECK);
    expect(check.code).toBe(79);
    const failed = failedLines(check.stdout);
    expect(failed.map((l) => l.split(':')[0])).toEqual(['FAILED  data directory', 'FAILED  key']);
    expect(failed[0]).toContain(`${w.dataDir} is mode 0755 (readable by others; chmod 0700 it)`);
    expect(failed[1]).toMatch(/^FAILED {2}key: WALLET_FILE_INSECURE: .*; chmod 600 the key file \(docs\/security\.md\)$/);
  });
});
