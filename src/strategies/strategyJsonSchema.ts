import { z } from 'zod';
import { strategySchema } from './strategySchema.js';

/** Where the generated schema lives, relative to the repository root. */
export const STRATEGY_SCHEMA_PATH = 'schema/strategy.schema.json';

/**
 * The JSON Schema editors use to check strategy files as authors type (yaml-language-server),
 * generated from the zod schema so the two cannot disagree. It describes the input side: what
 * may be written. Cross-field rules and token resolution are beyond JSON Schema; `jupbot
 * validate` checks those.
 */
export function strategyJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(strategySchema, { io: 'input', unrepresentable: 'any', target: 'draft-7' });
  return {
    ...generated,
    $id: 'https://jupbot.local/schema/strategy.schema.json',
    title: 'jupbot strategy',
    description:
      'A jupbot strategy file (price-order, dca or prediction-exit). Reference: docs/strategies.md. Generated from src/strategies/*Schema.ts; do not edit.',
  };
}

/** The file text: stable key order as generated, two-space indent, final newline. */
export function strategyJsonSchemaText(): string {
  return `${JSON.stringify(strategyJsonSchema(), null, 2)}\n`;
}
