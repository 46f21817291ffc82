import { describe, expect, it } from 'vitest';
import { actionsTable } from '../../../src/cli/auditOutput.js';
import { formatUnits } from '../../../src/money/formatUnits.js';
import { renderTable } from '../../../src/cli/table.js';

describe('formatUnits', () => {
  it.each<[bigint, number, string]>([
    [1_500_000n, 6, '1.5'],
    [1n, 9, '0.000000001'],
    [-1n, 9, '-0.000000001'],
    [0n, 6, '0'],
    [1_000_000_000n, 9, '1'],
    [42n, 0, '42'],
    [18446744073709551615n, 9, '18446744073.709551615'],
    [-250_000n, 6, '-0.25'],
  ])('formats %s with %i decimals as %s', (amount, decimals, text) => {
    expect(formatUnits(amount, decimals)).toBe(text);
  });
});

describe('renderTable', () => {
  it('pads columns to the widest cell and aligns as asked', () => {
    expect(
      renderTable(
        ['ID', 'NAME'],
        [
          ['1', 'a'],
          ['10', 'bbb'],
        ],
        ['right'],
      ),
    ).toBe('ID  NAME\n 1  a\n10  bbb\n');
  });
});

describe('actionsTable', () => {
  it('shows a dash for missing values and shortens long ones', () => {
    const text = actionsTable([
      {
        id: 1,
        at: Date.UTC(2026, 0, 1),
        kind: 'error',
        strategy: null,
        intentId: null,
        mint: null,
        amount: null,
        decimals: null,
        signature: null,
        data: `{"message":"${'x'.repeat(80)}"}`,
        prevHash: '0'.repeat(64),
        hash: 'a'.repeat(64),
      },
    ]);
    const row = text.split('\n')[1] ?? '';
    expect(row).toMatch(/^ 1\s+2026-01-01T00:00:00Z\s+error\s+-\s+-\s+-\s+-\s+-\s+\{"message":"x+…$/);
    expect(row.endsWith('…')).toBe(true);
  });
});
