/**
 * The daemon is started three ways (`npm start`, the systemd unit, the Docker image); all three
 * carry the same memory settings, which bench/daemon.ts measured: V8 tuned for size and two malloc
 * arenas. A launch that lost them would use tens of MB more, silently.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string): string => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const FLAGS = ['--optimize-for-size', '--enable-source-maps'];

describe('every way of starting the daemon has the same memory settings', () => {
  it('npm start', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start ?? '';
    expect(start).toMatch(/^MALLOC_ARENA_MAX=2 node /);
    for (const flag of FLAGS) expect(start.split(' ')).toContain(flag);
  });

  it('deploy/jupbot.service', () => {
    const unit = read('deploy/jupbot.service');
    expect(unit).toMatch(/^Environment=MALLOC_ARENA_MAX=2$/m);
    const exec = /^ExecStart=(.*)$/m.exec(unit)?.[1]?.split(' ') ?? [];
    for (const flag of FLAGS) expect(exec).toContain(flag);
  });

  it('the Dockerfile', () => {
    const file = read('Dockerfile');
    expect(file).toMatch(/^ENV MALLOC_ARENA_MAX=2$/m);
    const entry = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(file)?.[1] ?? '[]') as string[];
    expect(entry[0]).toBe('node');
    for (const flag of FLAGS) expect(entry).toContain(flag);
  });

  it('docs/operations.md names the same settings', () => {
    const memory = /^### Memory\n([\s\S]*?)^##/m.exec(read('docs/operations.md'))?.[1] ?? '';
    expect(memory).toContain('`node --optimize-for-size`');
    expect(memory).toContain('`MALLOC_ARENA_MAX=2`');
    expect(memory).toContain('`npm run bench:daemon -- 24`');
    expect(read('package.json')).toContain('"bench:daemon": ');
  });
});
