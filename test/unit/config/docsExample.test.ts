import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/configError.js';
import { parseConfigText } from '../../../src/config/loadConfig.js';

const repo = resolve(import.meta.dirname, '../../..');

it('the error example in docs/configuration.md is what the loader prints for the file shown there', () => {
  const doc = readFileSync(resolve(repo, 'docs/configuration.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Errors'));
  const printed = /```\n(config\/live\.yaml:[\s\S]*?)\n```/.exec(section)?.[1];
  const yaml = /That is the whole output for this file:\n\n```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  expect(printed).toMatch(/^config\/live\.yaml:\d+:\d+: /);
  expect(yaml).toMatch(/^mode: /);
  let message = '';
  try {
    parseConfigText(yaml ?? '', 'config/live.yaml', {}, '/srv/jupbot');
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    message = error.message;
  }
  expect(message).toBe(printed);
});
