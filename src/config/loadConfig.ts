import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Config } from './config.js';
import { resolveConfig } from './config.js';
import { ConfigError, ConfigFileError } from './configError.js';
import type { Env } from './configRules.js';
import { checkConfigRules, isSet, KEYPAIR_ENV } from './configRules.js';
import type { Diagnostic } from './diagnostics.js';
import { sortDiagnostics } from './diagnostics.js';
import { expandPath } from './expandPath.js';
import { expandVariables, unsetVariables } from './expandVariables.js';
import { configFileSchema } from './schema.js';
import { validateSource } from './validateSource.js';
import type { YamlSource } from './yamlSource.js';
import { diagnosticAt, parseYamlSource } from './yamlSource.js';

/** Names the config file when `--config` is not given. */
export const CONFIG_ENV = 'JUPBOT_CONFIG';
export const DEFAULT_CONFIG_FILE = 'config/default.yaml';

export interface LoadConfigOptions {
  /** From `--config`; relative to `cwd`. */
  readonly file?: string | undefined;
  /** The process environment (passed in: the loader never reads `process.env`). */
  readonly env: Env;
  readonly cwd: string;
  /**
   * `read`: for commands that only read (audit, plan, explain): secrets and the key file are not
   * required, so an auditor needs nothing but the database and the config. @default 'run'
   */
  readonly purpose?: 'run' | 'read' | undefined;
}

/** Which file to read, and why that one (for a message that helps when it is missing). */
export interface ConfigLocation {
  /** Absolute path. */
  readonly path: string;
  /** As the user wrote it; used in diagnostics. */
  readonly shown: string;
  readonly origin: 'option' | 'env' | 'default';
}

/** `--config` wins, then JUPBOT_CONFIG, then config/default.yaml, each relative to `cwd`. */
export function resolveConfigPath(options: LoadConfigOptions): ConfigLocation {
  const fromEnv = options.env[CONFIG_ENV];
  const [shown, origin] =
    options.file !== undefined
      ? ([options.file, 'option'] as const)
      : isSet(fromEnv)
        ? ([fromEnv, 'env'] as const)
        : ([DEFAULT_CONFIG_FILE, 'default'] as const);
  return { path: resolve(options.cwd, shown), shown, origin };
}

/**
 * Reads, checks and resolves the config file. Throws {@link ConfigFileError} when the file cannot
 * be read and {@link ConfigError} listing every problem when its content is wrong.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<Config> {
  const location = resolveConfigPath(options);
  const text = await readConfigText(location);
  const read = options.purpose === 'read';
  const checked = checkConfigText(text, location.shown, options.env, options.cwd, read);
  const fileProblems = read ? [] : await checkFiles(checked.source, options.env, dirname(location.path));
  const diagnostics = [...checked.diagnostics, ...fileProblems];
  if (diagnostics.length > 0 || !checked.config) throw new ConfigError(diagnostics);
  return checked.config;
}

/**
 * Checks and resolves config text without touching the filesystem (tests, and tools that have
 * the text already). `file` is shown in diagnostics and, resolved against `cwd`, anchors the
 * relative paths inside the file. Throws {@link ConfigError} listing every problem.
 */
export function parseConfigText(text: string, file: string, env: Env, cwd: string): Config {
  const checked = checkConfigText(text, file, env, cwd);
  if (!checked.config) throw new ConfigError(checked.diagnostics);
  return checked.config;
}

interface Checked {
  readonly source: YamlSource;
  readonly diagnostics: readonly Diagnostic[];
  /** Present only when there is no diagnostic. */
  readonly config?: Config;
}

function checkConfigText(text: string, file: string, env: Env, cwd: string, readOnly = false): Checked {
  const source = parseYamlSource(text, file);
  // An empty file is a valid config: every key has a default.
  const validation = validateSource(source, configFileSchema, { valueIfEmpty: {} });
  const rules = source.malformed ? [] : checkConfigRules(source, env, { secrets: !readOnly });
  const diagnostics = sortDiagnostics([...validation.diagnostics, ...rules]);
  if (!validation.ok || diagnostics.length > 0) return { source, diagnostics };
  const config = resolveConfig(validation.data, { env, file: resolve(cwd, file) });
  return { source, diagnostics, config };
}

async function readConfigText(location: ConfigLocation): Promise<string> {
  const named = {
    option: 'named by --config',
    env: `named by ${CONFIG_ENV}`,
    default: `the default; pass --config FILE or set ${CONFIG_ENV}`,
  }[location.origin];
  const where = location.shown === location.path ? location.shown : `${location.shown} (${location.path})`;
  try {
    return await readFile(location.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ConfigFileError('CONFIG_NOT_FOUND', `config file not found: ${where}, ${named}`, location.path, error);
    const why = code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (code ?? 'unknown error');
    throw new ConfigFileError('CONFIG_UNREADABLE', `cannot read config file ${where}: ${why}`, location.path, error);
  }
}

/**
 * The key file is checked now rather than when the wallet first signs: a daemon that starts, runs
 * for an hour and only then fails to trade is worse than one that refuses to start. Only
 * existence and readability are checked here; the wallet module parses the key.
 */
async function checkFiles(source: YamlSource, env: Env, baseDir: string): Promise<Diagnostic[]> {
  const raw = source.value as { mode?: unknown; wallet?: { keypair_file?: unknown } } | null | undefined;
  // Rehearsal never reads a key: a key file it cannot read is no problem of its.
  if (raw?.mode === 'rehearsal') return [];
  const keypairFile = raw?.wallet?.keypair_file;
  if (typeof keypairFile !== 'string' || keypairFile === '' || isSet(env[KEYPAIR_ENV])) return [];
  // `${NAME}` unset: reported by configRules, nothing to look at here.
  if (unsetVariables(keypairFile, env).length > 0) return [];
  let path: string;
  try {
    path = expandPath(expandVariables(keypairFile, env), baseDir, env.HOME);
  } catch {
    return []; // `~` without HOME: already reported by configRules.
  }
  const at = (why: string): Diagnostic[] => [diagnosticAt(source, ['wallet', 'keypair_file'], `wallet.keypair_file: ${path} ${why}`)];
  try {
    if ((await stat(path)).isDirectory()) return at('is a directory, not a key file');
    await access(path, constants.R_OK);
    return [];
  } catch (error) {
    return at((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'is not readable');
  }
}
