import { StoreError } from './errors.js';

/** Where the encoder is, as a stack of keys and indexes: formatted only when an error needs it. */
type Path = (string | number)[];

function formatPath(root: string, path: Path): string {
  let out = root;
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  }
  return out;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

class Encoder {
  readonly #path: Path = [];
  /** Containers being encoded, outermost first: a cycle shows as a repeat. An array beats a Set at these depths. */
  readonly #open: object[] = [];

  constructor(readonly root: string) {}

  fail(problem: string): never {
    const path = formatPath(this.root, this.#path);
    throw new StoreError('STORE_CANONICAL_JSON', `${path} ${problem}`, { details: { path } });
  }

  encode(value: unknown): string {
    switch (typeof value) {
      case 'string':
        // JSON.stringify's string form is the one RFC 8785 prescribes: minimal escapes, lowercase \u00xx.
        return JSON.stringify(value);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'bigint':
        return `"${value.toString()}"`;
      case 'number':
        if (!Number.isFinite(value)) this.fail(`is ${value}: only finite numbers have a JSON form`);
        // ECMAScript's shortest round-trip form, as RFC 8785 prescribes; -0 becomes 0. Numbers
        // beyond 2^53 are accepted as they are (an API snapshot may hold them): money never travels
        // as a number in jupbot, it is a bigint or a decimal string before it gets here.
        return JSON.stringify(value);
      case 'undefined':
        return this.fail('is undefined: omit the key or use null');
      case 'function':
      case 'symbol':
        return this.fail(`is a ${typeof value}, which has no JSON form`);
      case 'object':
        return value === null ? 'null' : this.#container(value);
    }
  }

  #container(object: object): string {
    if (this.#open.includes(object)) this.fail('refers back to itself (a cycle)');
    this.#open.push(object);
    let out: string;
    if (Array.isArray(object)) {
      out = '[';
      for (let i = 0; i < object.length; i++) {
        this.#path.push(i);
        out += (i === 0 ? '' : ',') + this.encode(object[i]);
        this.#path.pop();
      }
      out += ']';
    } else if (isPlainObject(object)) {
      const record = object as Record<string, unknown>;
      // Default sort compares UTF-16 code units, the order RFC 8785 prescribes.
      const keys = Object.keys(record).sort();
      out = '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        this.#path.push(key);
        out += `${i === 0 ? '' : ','}${JSON.stringify(key)}:${this.encode(record[key])}`;
        this.#path.pop();
      }
      out += '}';
    } else {
      const kind = (object.constructor as { name?: string } | undefined)?.name ?? 'object';
      const hint = object instanceof Date ? ': store epoch milliseconds' : ': convert it to plain data first';
      out = this.fail(`is a ${kind}, not plain JSON data${hint}`);
    }
    this.#open.pop();
    return out;
  }
}

/**
 * The one text form of a value that the audit log hashes: object keys sorted, no whitespace,
 * bigint as a decimal string, numbers and strings as RFC 8785 (JCS) writes them. Rejects what has
 * no faithful JSON form (undefined, NaN, ±Infinity, functions, symbols, class instances such as
 * Date or Uint8Array, cycles), naming the path of the offending value.
 *
 * @example
 * canonicalJson({ b: 1n, a: [true, null] }) // '{"a":[true,null],"b":"1"}'
 */
export function canonicalJson(value: unknown, path = '$'): string {
  return new Encoder(path).encode(value);
}
