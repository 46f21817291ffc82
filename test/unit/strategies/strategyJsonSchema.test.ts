import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STRATEGY_SCHEMA_PATH, strategyJsonSchemaText } from '../../../src/strategies/strategyJsonSchema.js';

const file = join(import.meta.dirname, '../../..', STRATEGY_SCHEMA_PATH);

describe('schema/strategy.schema.json', () => {
  it('matches the zod schema (regenerate with JUPBOT_UPDATE_SCHEMA=1 npx vitest run test/unit/strategies/strategyJsonSchema.test.ts)', () => {
    const generated = strategyJsonSchemaText();
    if (process.env['JUPBOT_UPDATE_SCHEMA'] === '1') writeFileSync(file, generated);
    expect(readFileSync(file, 'utf8'), 'the committed schema drifted from src/strategies/*Schema.ts').toBe(generated);
  });

  it('lists the three kinds and rejects unknown keys', () => {
    const schema = JSON.parse(strategyJsonSchemaText()) as { oneOf: { properties: { kind: { const: string } }; additionalProperties: boolean }[] };
    expect(schema.oneOf.map((o) => o.properties.kind.const)).toEqual(['price-order', 'dca', 'prediction-exit']);
    expect(schema.oneOf.every((o) => o.additionalProperties === false)).toBe(true);
  });
});
