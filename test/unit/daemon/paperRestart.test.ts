import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import type { Config } from '../../../src/config/config.js';
import { start } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import { jupbot } from '../../support/cli.js';
import { MemoryStream } from '../../support/memoryStream.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A data and strategies directory with its config (written to `config.yaml`, parsed). */
function workspace(extra = ''): { dir: string; text: string; configFile: string; config: Config } {
  const dir = mkdtempSync(join(tmpdir(), 'jupbot-paper-restart-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'strategies'));
  const text = `data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\n${extra}`;
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, text);
  return { dir, text, configFile, config: parseConfigText(text, configFile, {}, dir) };
}

describe('paper mode across restarts', () => {
  it('keeps its world and database across a restart; `paper reset` moves both aside, and the next run starts anew', async () => {
    const { dir, config } = workspace('sim: { seed: restart }\n');
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 12));
    const out = new MemoryStream();
    const log = createLogger({ destination: out });
    const sqlite = (): string[] =>
      readdirSync(join(dir, 'data'))
        .filter((f) => f.endsWith('.sqlite'))
        .sort();
    const kinds = (file: string): string[] => {
      const db = new Database(join(dir, 'data', file), { readonly: true });
      try {
        return (db.prepare("SELECT kind FROM actions WHERE kind LIKE 'daemon.%' ORDER BY id").all() as { kind: string }[]).map((r) => r.kind);
      } finally {
        db.close();
      }
    };

    const first = await start(config, { clock, log });
    await first.stop('first run over');
    await clock.advance(60_000);
    const second = await start(config, { clock, log });
    await second.stop('second run over');
    // The world was kept: the same database goes on.
    expect(sqlite()).toEqual(['jupbot-paper.sqlite', 'paper-world.sqlite']);
    expect(kinds('jupbot-paper.sqlite')).toEqual(['daemon.started', 'daemon.stopped', 'daemon.started', 'daemon.stopped']);

    await clock.advance(60_000);
    const reset = await jupbot(['paper', 'reset', '--config', join(dir, 'config.yaml')], { clock });
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain('the next paper run starts a new simulated world');
    expect(sqlite()).toEqual(['jupbot-paper.2026-11-21T12-02-00-000Z.sqlite', 'paper-world.2026-11-21T12-02-00-000Z.sqlite']);

    const third = await start(config, { clock, log });
    await third.stop('third run over');
    expect(sqlite()).toEqual([
      'jupbot-paper.2026-11-21T12-02-00-000Z.sqlite',
      'jupbot-paper.sqlite',
      'paper-world.2026-11-21T12-02-00-000Z.sqlite',
      'paper-world.sqlite',
    ]);
    expect(kinds('jupbot-paper.sqlite')).toEqual(['daemon.started', 'daemon.stopped']);
    const archived = new Database(join(dir, 'data', 'jupbot-paper.2026-11-21T12-02-00-000Z.sqlite'), { readonly: true });
    expect(verifyAuditChain(archived).ok).toBe(true);
    archived.close();
  });

  it('a database without its world (the world file removed by hand) is moved aside: a new world gets a new database', async () => {
    const { dir, config } = workspace();
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 12));
    const out = new MemoryStream();
    const first = await start(config, { clock, log: createLogger({ destination: out }) });
    await first.stop('first run over');
    rmSync(join(dir, 'data', 'paper-world.sqlite'));
    await clock.advance(60_000);
    const second = await start(config, { clock, log: createLogger({ destination: out }) });
    await second.stop('second run over');
    expect(
      readdirSync(join(dir, 'data'))
        .filter((f) => f.startsWith('jupbot-paper'))
        .sort(),
    ).toEqual(['jupbot-paper.2026-11-21T12-01-00-000Z.sqlite', 'jupbot-paper.sqlite']);
    expect(out.text).toContain('the previous run is kept');
  });

  it('a kept world keeps its seed: no word when sim.seed is unset, a warning when it names another', async () => {
    const { dir, text, configFile } = workspace();
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 12));
    const runOnce = async (config: string): Promise<string> => {
      const out = new MemoryStream();
      const daemon = await start(parseConfigText(config, configFile, {}, dir), { clock, log: createLogger({ destination: out }) });
      await daemon.stop('over');
      await clock.advance(60_000);
      return out.text;
    };
    const first = await runOnce(text);
    const seed = /"seed":"([^"]+)"/.exec(first)?.[1];
    expect(seed).toMatch(/^[0-9a-f]{16}$/);
    const second = await runOnce(text);
    expect(second).toContain('paper world restored from the data directory');
    expect(second).not.toContain('sim.seed differs');
    expect(second).toContain(`"seed":"${seed}"`);
    const third = await runOnce(`${text}sim: { seed: another }\n`);
    expect(third).toContain('sim.seed differs from the saved paper world: the saved world continues');
    expect(third).toContain(`"seed":"${seed}"`);
  });

  it('a damaged world file stops the start with where and what to do, and changes nothing', async () => {
    const { dir, config } = workspace();
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 12));
    const first = await start(config, { clock, log: createLogger({ destination: new MemoryStream() }) });
    await first.stop('over');
    const world = new Database(join(dir, 'data', 'paper-world.sqlite'));
    world.prepare('UPDATE inputs SET input = \'{"kind":"request"}\' WHERE seq = (SELECT min(seq) FROM inputs)').run();
    world.close();
    await expect(start(config, { clock, log: createLogger({ destination: new MemoryStream() }) })).rejects.toThrow(
      /^the paper world in .*paper-world\.sqlite cannot be rebuilt at input 1: a paper world input row does not parse: .*`jupbot paper reset` keeps it aside and starts a new world$/,
    );
    // Nothing moved: the database and the world are as the last run left them, the lock released.
    expect(
      readdirSync(join(dir, 'data'))
        .filter((f) => f.endsWith('.sqlite'))
        .sort(),
    ).toEqual(['jupbot-paper.sqlite', 'paper-world.sqlite']);
    expect(readdirSync(join(dir, 'data'))).not.toContain('jupbot.lock');
  });

  it('`paper reset` is refused while a daemon holds the data directory', async () => {
    const { dir, config } = workspace();
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 12));
    const daemon = await start(config, { clock, log: createLogger({ destination: new MemoryStream() }) });
    try {
      const reset = await jupbot(['paper', 'reset', '--config', join(dir, 'config.yaml')], { clock });
      expect(reset.code).not.toBe(0);
      expect(reset.stderr).toMatch(/lock|running|in use/i);
      expect(
        readdirSync(join(dir, 'data'))
          .filter((f) => f.endsWith('.sqlite'))
          .sort(),
      ).toEqual(['jupbot-paper.sqlite', 'paper-world.sqlite']);
    } finally {
      await daemon.stop('test over');
    }
  });
});
