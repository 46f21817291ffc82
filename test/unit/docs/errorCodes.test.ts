import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli.js';

/** Every .ts file under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

// Error codes are namespaced by layer; operators and alerting rules look them up in docs/.
const CODE = /'((?:CONFIG|STORE|JUPITER|SWAP|TRIGGER|PREDICTION|GUARD|WALLET|SESSION|STRATEGY|RPC|RISK|QUOTE|LANDED|ATTEMPTS|STALE|NO|PARAMS)_[A-Z0-9_]+)'/g;

describe('error code catalogue', () => {
  it('documents every error code the source can raise', () => {
    const docs = readdirSync(join(repoRoot, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => readFileSync(join(repoRoot, 'docs', name), 'utf8'))
      .join('\n');
    const undocumented = new Map<string, string>();
    for (const file of sourceFiles(join(repoRoot, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(CODE)) {
        const code = match[1] as string;
        if (!docs.includes(`\`${code}\``)) undocumented.set(code, relative(repoRoot, file));
      }
    }
    expect(Object.fromEntries(undocumented)).toEqual({});
  });
});
