import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatDiagnostic } from '../../../src/config/diagnostics.js';
import { durationSchema } from '../../../src/config/duration.js';
import { validateYamlText } from '../../../src/config/validateSource.js';

// A schema shaped like a strategy file: the layer is generic, not tied to the config schema.
const ruleSchema = z.discriminatedUnion('when', [
  z.strictObject({ when: z.literal('price_above'), price: z.string().regex(/^\d+(\.\d+)?$/) }),
  z.strictObject({ when: z.literal('elapsed'), after: durationSchema() }),
]);
const strategySchema = z.strictObject({
  name: z.string().min(1),
  kind: z.enum(['dca', 'price-order', 'prediction-exit']),
  enabled: z.boolean().default(true),
  amount: z.union([z.string(), z.number()]),
  limits: z.strictObject({ max_per_day: z.int().positive().optional(), slippage_bps: z.int().min(1).max(10_000).default(50) }).prefault({}),
  rules: z.array(ruleSchema).min(1),
  note: z
    .string()
    .refine((s) => !s.includes('TODO'), { error: 'still says TODO' })
    .optional(),
});

function check(text: string): string[] {
  const result = validateYamlText(text, 's.yaml', strategySchema);
  return result.diagnostics.map(formatDiagnostic);
}

describe('validateYamlText', () => {
  it('returns typed data when the file is valid', () => {
    const result = validateYamlText('name: x\nkind: dca\namount: "5"\nrules:\n  - { when: elapsed, after: 1h30m }\n', 's.yaml', strategySchema);
    expect(result).toEqual({
      ok: true,
      diagnostics: [],
      data: { name: 'x', kind: 'dca', enabled: true, amount: '5', limits: { slippage_bps: 50 }, rules: [{ when: 'elapsed', after: 5_400_000 }] },
    });
  });

  it('reports every problem at once, in reading order, each where it is', () => {
    const text = [
      'name: ""', //                    1
      'kind: dac', //                   2
      'enabled: yes', //                3  (YAML 1.2: a string, not a boolean)
      'amount: [1]', //                 4
      'limits:', //                     5
      '  max_per_dya: 3', //            6
      '  slippage_bps: 1.5', //         7
      'rules:', //                      8
      '  - when: price_abve', //        9
      '  - when: elapsed', //           10
      '    after: soon', //             11
      '    extra: 1', //                12
      'note: TODO later', //            13
    ].join('\n');
    expect(check(text)).toEqual([
      's.yaml:1:7: name must not be empty (got string "")',
      's.yaml:2:7: kind must be one of "dca", "price-order", "prediction-exit" (got "dac")',
      's.yaml:3:10: enabled must be true or false (got string "yes")',
      's.yaml:4:9: amount must be a string or a number (got a list)',
      's.yaml:6:3: unknown key "max_per_dya" in limits (did you mean "max_per_day"?)',
      's.yaml:7:17: limits.slippage_bps must be an integer (got number 1.5)',
      's.yaml:9:11: rules[0].when must be one of "price_above", "elapsed" (got "price_abve")',
      's.yaml:11:12: rules[1].after: "soon" is not a duration (use e.g. 500ms, 10s, 5m, 2h, 30d)',
      's.yaml:12:5: unknown key "extra" in rules[1]',
      's.yaml:13:7: note: still says TODO',
    ]);
  });

  it('reports a missing required key at its parent mapping', () => {
    expect(check('kind: dca\namount: 1\nrules:\n  - when: price_above\n')).toEqual([
      's.yaml:1:1: missing required key "name"',
      's.yaml:4:5: missing required key "price" in rules[0]',
    ]);
  });

  it('reports a missing discriminator with the allowed values', () => {
    expect(check('name: n\nkind: dca\namount: 1\nrules:\n  - price: "1"\n')).toEqual([
      's.yaml:5:5: missing required key "when" in rules[0] (one of "price_above", "elapsed")',
    ]);
  });

  it('describes wrong types in YAML words', () => {
    expect(check('name: n\nkind: dca\namount: 1\nrules: {}\nlimits: ~\n')).toEqual([
      's.yaml:4:8: rules must be a list (got a mapping)',
      's.yaml:5:9: limits must be a mapping (got an empty value)',
    ]);
    // Nothing after the colon: the key is the place to point at.
    expect(check('name: n\nkind: dca\namount: 1\nrules: [{ when: elapsed, after: 1s }]\nlimits:\n')).toEqual([
      's.yaml:5:1: limits must be a mapping (got an empty value)',
    ]);
  });

  it('checks the whole document type', () => {
    expect(check('- a\n- b\n')).toEqual(['s.yaml:1:1: the document must be a mapping (got a list)']);
  });

  it('treats an empty file as empty unless told otherwise', () => {
    expect(check('')).toEqual(['s.yaml:1:1: the document must be a mapping (got an empty value)']);
    const lenient = validateYamlText('', 'e.yaml', z.strictObject({ a: z.number().default(1) }), { valueIfEmpty: {} });
    expect(lenient).toMatchObject({ ok: true, data: { a: 1 } });
  });

  it('fails a file with a duplicate key even when the surviving value passes', () => {
    const result = validateYamlText('a: 1\na: 2\n', 'd.yaml', z.strictObject({ a: z.number() }));
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual(['d.yaml:2:1: duplicate key "a" (first at line 1)']);
  });

  it('does not run the schema on malformed YAML', () => {
    expect(check('name: [unclosed\nkind: dca\n')).toEqual([
      's.yaml:2:1: invalid YAML: flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
  });

  it('uses the bounds and inclusivity of numeric checks', () => {
    const schema = z.strictObject({ a: z.number().gt(0), b: z.number().max(10), c: z.array(z.string()).max(1), d: z.string().max(3) });
    const result = validateYamlText('a: 0\nb: 11\nc: [x, y]\nd: abcd\n', 'n.yaml', schema);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'n.yaml:1:4: a must be greater than 0 (got number 0)',
      'n.yaml:2:4: b must be at most 10 (got number 11)',
      'n.yaml:3:4: c must have at most 1 item (got a list)',
      'n.yaml:4:4: d must be at most 3 characters long (got string "abcd")',
    ]);
  });

  it('quotes odd keys in paths and truncates long values', () => {
    const schema = z.strictObject({ labels: z.record(z.string(), z.number()) });
    const long = 'x'.repeat(100);
    const result = validateYamlText(`labels:\n  "a b": ${long}\n`, 'l.yaml', schema);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([`l.yaml:2:10: labels["a b"] must be a number (got string "${'x'.repeat(57)}...")`]);
  });
});
