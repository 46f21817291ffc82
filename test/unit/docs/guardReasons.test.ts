import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFUSAL_REASONS } from '../../../src/solana/guardRefusal.js';

describe('docs/security.md lists every guard refusal reason', () => {
  const doc = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
  const listed = doc.slice(doc.indexOf('### Reason codes'), doc.indexOf('## The Trigger V2 session'));

  it('names each reason the guard can give, and no other', () => {
    const named = [...listed.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]).filter((code) => code !== 'GUARD_REFUSED');
    expect([...named].sort()).toEqual([...REFUSAL_REASONS].sort());
  });
});
