import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';
import { start } from '../../../src/daemon.js';
import { createLogger } from '../../../src/ops/log.js';
import { verifyAuditChain } from '../../../src/store/chainVerifier.js';
import { MemoryStream } from '../../support/memoryStream.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('paper mode across restarts', () => {
  it('a new simulated world gets a new database; the previous run is kept beside it, verifiable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jupbot-paper-restart-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'strategies'));
    const config = parseConfigText(
      `data_dir: ${dir}/data\nstrategies_dir: ${dir}/strategies\nhttp: { listen: "127.0.0.1:0" }\nsim: { seed: restart }\n`,
      join(dir, 'c.yaml'),
      {},
      dir,
    );
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 12));
    const out = new MemoryStream();
    const log = createLogger({ destination: out });

    const first = await start(config, { clock, log });
    await first.stop('first run over');
    await clock.advance(60_000);
    const second = await start(config, { clock, log });
    await second.stop('second run over');

    const files = readdirSync(join(dir, 'data'))
      .filter((f) => f.endsWith('.sqlite'))
      .sort();
    expect(files).toEqual(['jupbot-paper.2026-11-21T12-01-00-000Z.sqlite', 'jupbot-paper.sqlite']);
    const kinds = (file: string): string[] => {
      const db = new Database(join(dir, 'data', file), { readonly: true });
      try {
        return (db.prepare("SELECT kind FROM actions WHERE kind LIKE 'daemon.%' ORDER BY id").all() as { kind: string }[]).map((r) => r.kind);
      } finally {
        db.close();
      }
    };
    expect(kinds(files[0] as string)).toEqual(['daemon.started', 'daemon.stopped']);
    expect(kinds('jupbot-paper.sqlite')).toEqual(['daemon.started', 'daemon.stopped']);
    const archived = new Database(join(dir, 'data', files[0] as string), { readonly: true });
    expect(verifyAuditChain(archived).ok).toBe(true);
    archived.close();
    expect(out.text).toContain('the previous run is kept');
  });
});
