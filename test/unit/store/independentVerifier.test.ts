/**
 * docs/audit.md gives an auditor a Python script that re-verifies the chain and the seals without
 * jupbot. It is run here, as printed in the docs, against a database jupbot wrote and against
 * tampered copies: it must agree with `audit verify`. Needs python3 (Debian's python3); without it
 * the test is skipped, and says so.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { tampered, tradedDatabase } from './sealedDatabase.js';

const python = spawnSync('python3', ['--version']).status === 0;
if (!python) process.stderr.write('independent verifier test skipped: no python3 on PATH (apt-get install python3)\n');

function script(): string {
  const docs = readFileSync(join(import.meta.dirname, '../../../docs/audit.md'), 'utf8');
  const match = /## Re-verifying without jupbot[\s\S]*?```python\n([\s\S]*?)```/.exec(docs);
  if (!match) throw new Error('docs/audit.md has no Python verifier under "Re-verifying without jupbot"');
  const file = join(tempDir(), 'verify_actions.py');
  writeFileSync(file, match[1] as string);
  return file;
}

function run(verifier: string, db: string): { code: number; out: string } {
  const result = spawnSync('python3', [verifier, db], { encoding: 'utf8' });
  return { code: result.status ?? -1, out: result.stdout };
}

describe.skipIf(!python)("the docs' independent verifier", () => {
  it('passes what jupbot wrote and names what a tamperer changed, as audit verify does', () => {
    const verifier = script();
    const file = tradedDatabase();
    const sound = run(verifier, file);
    expect(sound.code).toBe(0);
    expect(sound.out).toMatch(/^ok: \d+ rows, head \d+ [0-9a-f]{64}\n$/);

    const edited = run(
      verifier,
      tampered(file, (db) => db.exec(`UPDATE fills SET out_amount = '908206188' WHERE id = 2`)),
    );
    expect(edited).toEqual({ code: 1, out: expect.stringMatching(/^fills row 2: not as action \d+ sealed it \(edited\)\n$/) as string });
    const inserted = run(
      verifier,
      tampered(file, (db) =>
        db.exec(`INSERT INTO intents (id, strategy, kind, params, state, created_at, updated_at) VALUES ('ghost', 's', 'swap', '{}', 'confirmed', 1, 1)`),
      ),
    );
    expect(inserted).toEqual({ code: 1, out: 'intents row ghost: in no seal (inserted)\n' });
    const deleted = run(
      verifier,
      tampered(file, (db) => db.exec(`DELETE FROM trigger_orders WHERE id = 'order-1'`)),
    );
    expect(deleted).toEqual({ code: 1, out: expect.stringMatching(/^trigger_orders row order-1: sealed by action \d+, missing \(deleted\)\n$/) as string });
    // An intent's signed bytes (a BLOB, written here where there were none) are in its digest too.
    const blob = run(
      verifier,
      tampered(file, (db) => db.exec(`UPDATE intents SET signed_tx = X'00' WHERE id = 'buy'`)),
    );
    expect(blob.out).toMatch(/^intents row buy: not as action \d+ sealed it \(edited\)\n$/);
  });
});
