// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// House rules that tests rarely catch, enforced where they apply:
// time and randomness come from the injected Clock/Random, logs go through pino,
// and decide() code under src/strategies stays free of I/O.
const noAmbientTimeOrRandom = [
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: 'Read time from the injected Clock (src/clock.ts), never Date.now().',
  },
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: 'Read time from the injected Clock (src/clock.ts), never new Date().',
  },
  {
    selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
    message: 'Use the injected Random (src/random.ts), never Math.random().',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['**/*.ts'] })),
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/clock.ts', 'src/random.ts'],
    rules: { 'no-restricted-syntax': ['error', ...noAmbientTimeOrRandom] },
  },
  {
    // decide() functions are pure: no network, no signing, no database, no clock.
    files: ['src/strategies/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/jupiter/**', '**/solana/**', '**/store/**', '**/engine/**', 'node:fs', 'node:net', 'node:http'] }],
    },
  },
  {
    // The CLI is the one place that writes to the terminal directly.
    files: ['src/cli/**/*.ts', 'bench/**/*.ts', '.ci/**/*.js'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
