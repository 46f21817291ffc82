/**
 * `${NAME}` in `wallet.keypair_file`, replaced by that environment variable: under systemd the key
 * arrives through `LoadCredential=`, in a directory only the service can read whose path systemd
 * names in `$CREDENTIALS_DIRECTORY` at each start (`${CREDENTIALS_DIRECTORY}/wallet-key`). Only the
 * braced form is read, so a `$` elsewhere in a path means itself. Nothing else in the config is
 * expanded: the other paths are the operator's to write out.
 */

/** The environment, as the config loader is given it. */
type Env = Readonly<Record<string, string | undefined>>;

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The names `text` refers to that are unset (or blank) in `env`. */
export function unsetVariables(text: string, env: Env): string[] {
  return [...text.matchAll(VARIABLE)].map((m) => m[1] as string).filter((name) => (env[name] ?? '').trim() === '');
}

/** `text` with every `${NAME}` replaced; an unset one is left as written (the rules report it where it matters). */
export function expandVariables(text: string, env: Env): string {
  return text.replace(VARIABLE, (whole, name: string) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? whole : value.trim();
  });
}
