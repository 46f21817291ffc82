/**
 * `jupbot pause NAME` / `jupbot resume NAME` against a running paper daemon: the paused strategy
 * stops deciding while the other keeps trading, and decides again once resumed. The control socket
 * is the daemon's user's alone (mode 0600, another uid cannot connect), and the operations port
 * stays read-only: no write method reaches any of its routes.
 */
import { spawn } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { controlSocketPath } from '../../../src/control/controlProtocol.js';
import { controlWorld, MIN } from './controlWorld.js';

const dca = (name: string, token: string): string => `name: ${name}
kind: dca
buy: ${token}
pay_with: USDC
amount: "2"
execution: swap
schedule:
  cron: "*/5 * * * *"
  timezone: UTC
max_runs_per_day: 288
`;

type RuleJson = { rule: string; state: string; why: string };

/** Runs `node -e script` as `uid`; its exit code and stderr. */
function asUser(uid: number, script: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { uid, gid: uid, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const isRoot = process.getuid?.() === 0;

describe('pause and resume one strategy', () => {
  it('the paused one stops deciding, the other keeps trading; resumed, it trades again', async () => {
    const w = await controlWorld('pause', { 'jup.yaml': dca('dca-jup', 'JUP'), 'bonk.yaml': dca('dca-bonk', 'BONK') });
    const swaps = (strategy: string): number =>
      w.count("SELECT count(*) AS n FROM intents WHERE kind = 'swap' AND state = 'confirmed' AND strategy = ?", strategy);
    await w.drive(6 * MIN);
    expect(swaps('dca-jup')).toBeGreaterThanOrEqual(1);
    expect(swaps('dca-bonk')).toBeGreaterThanOrEqual(1);

    const pause = await w.cli(['pause', 'dca-jup', '--reason', 'checking its token']);
    expect(pause.stderr).toBe('');
    expect(pause.code).toBe(0);
    expect(pause.stdout).toMatch(/^paused: dca-jup since 2026-11-02T08:06:\d\d\.\d{3}Z by .+: checking its token$/m);
    const [jupAt, bonkAt] = [swaps('dca-jup'), swaps('dca-bonk')];
    await w.drive(15 * MIN);
    expect(swaps('dca-jup')).toBe(jupAt);
    expect(swaps('dca-bonk')).toBeGreaterThanOrEqual(bonkAt + 3);
    const status = await w.json('/status');
    expect(status['control']).toMatchObject({ halted: null, paused: [{ strategy: 'dca-jup', reason: 'checking its token' }] });
    const rules = (status['trading'] as { strategies: Record<string, { rules: RuleJson[] }> }).strategies;
    expect(rules['dca-jup']?.rules.map((r) => [r.state, r.why.replace(/ by .+ at /, ' by … at ')])).toEqual([
      ['paused', expect.stringMatching(/^paused by … at 2026-11-02T08:06:.*: checking its token$/)],
    ]);
    expect(rules['dca-bonk']?.rules.map((r) => r.state)).not.toContain('paused');

    // A name no strategy has is recorded, with a note.
    const typo = await w.cli(['pause', 'dca-jupp']);
    expect(typo.stdout).toContain('note: no loaded strategy is named dca-jupp');

    const resume = await w.cli(['resume', 'dca-jup']);
    expect(resume.code).toBe(0);
    expect(resume.stdout).not.toMatch(/^paused: dca-jup /m);
    expect(resume.stdout).toMatch(/^paused: dca-jupp /m);
    await w.drive(11 * MIN);
    expect(swaps('dca-jup')).toBeGreaterThanOrEqual(jupAt + 2);
    expect(w.count("SELECT count(*) AS n FROM actions WHERE kind IN ('control.paused', 'control.strategy-resumed') AND strategy = 'dca-jup'")).toBe(2);
  }, 120_000);

  it(
    isRoot
      ? 'the control socket is mode 0600: another uid (65534) cannot connect; the ops port refuses every write method'
      : 'the control socket is mode 0600 (not root: connecting as another uid is not tried); the ops port refuses every write method',
    async () => {
      const w = await controlWorld('socket', {});
      const path = controlSocketPath(w.config.data_dir);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      if (isRoot) {
        // The directories above it let anyone through: what refuses the other user is the socket's own mode.
        for (const dir of [w.dir, w.config.data_dir]) chmodSync(dir, 0o711);
        const script = `const s=require('node:net').connect(${JSON.stringify(path)});s.on('connect',()=>process.exit(0));s.on('error',(e)=>{console.error(e.code);process.exit(3)});`;
        const other = await asUser(65534, script);
        expect(other.stderr.trim()).toBe('EACCES');
        expect(other.code).toBe(3);
        // The same script as the daemon's own user connects: the refusal above is the permissions'.
        const own = await asUser(0, script);
        expect(own.code).toBe(0);
      }
      for (const route of ['/', '/status', '/healthz', '/readyz', '/metrics', '/halt', '/control']) {
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
          const answer = await fetch(`${w.daemon.opsUrl}${route}`, { method, body: method === 'DELETE' ? null : '{"command":"halt"}' });
          expect([route, method, answer.status]).toEqual([route, method, 405]);
        }
      }
      expect(((await w.json('/status'))['control'] as { halted: unknown }).halted).toBeNull();
    },
    60_000,
  );
});
