/**
 * Anchor IDL types, as both IDL generations write them (before 0.30: `"publicKey"` and
 * `{"defined": "Side"}`; from 0.30: `"pubkey"` and `{"defined": {"name": "Side"}}`), compiled into
 * Borsh skippers: functions that step a {@link BorshReader} over one value of the type and check
 * what can be checked (bool and option tags, enum tags in range). The route-plan decoder uses them
 * to walk `Swap` variants it has only learned from an IDL. A type this module cannot size (generics,
 * an unknown or recursive definition) makes the variant unusable; it never guesses a length.
 */
import { BorshError, type BorshReader } from './borshReader.js';

export type IdlType = string | { readonly [key: string]: unknown };

/** One field of a struct or enum variant: named (`{name, type}`) or a bare type (tuple form). */
export type IdlField = IdlType | { readonly name: string; readonly type: IdlType };

export interface IdlTypeDef {
  readonly name: string;
  readonly type: { readonly kind: 'struct'; readonly fields?: readonly IdlField[] } | { readonly kind: 'enum'; readonly variants: readonly IdlVariant[] };
}

export interface IdlVariant {
  readonly name: string;
  readonly fields?: readonly IdlField[];
}

export type Skip = (reader: BorshReader) => void;

/** Why a type cannot be compiled: the caller treats the variant that needs it as unknown. */
export class IdlTypeError extends Error {
  override name = 'IdlTypeError';
}

const FIXED: Readonly<Record<string, number>> = {
  u8: 1,
  i8: 1,
  u16: 2,
  i16: 2,
  u32: 4,
  i32: 4,
  f32: 4,
  u64: 8,
  i64: 8,
  f64: 8,
  u128: 16,
  i128: 16,
  u256: 32,
  i256: 32,
  publicKey: 32,
  pubkey: 32,
};
/** Nesting deeper than this is refused: a real venue's fields are a few levels at most. */
const MAX_DEPTH = 12;
/** Bytes of a string or byte vector inside a route step: far more than any venue field needs. */
const MAX_BYTES = 1_024;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The type of a field, whichever form the IDL wrote it in. */
export function fieldType(field: IdlField): IdlType {
  return isRecord(field) && typeof field['name'] === 'string' && 'type' in field ? (field['type'] as IdlType) : field;
}

/** The name a `defined` reference points at, in either IDL generation's form. */
function definedName(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (isRecord(value) && typeof value['name'] === 'string') {
    if (Array.isArray(value['generics']) && value['generics'].length > 0) return null;
    return value['name'];
  }
  return null;
}

/** Compiles IDL types against the definitions `types` (by name). Compiled definitions are shared. */
export class IdlTypeCompiler {
  readonly #types: ReadonlyMap<string, IdlTypeDef>;
  readonly #compiled = new Map<string, Skip>();
  readonly #compiling = new Set<string>();

  constructor(types: readonly IdlTypeDef[]) {
    this.#types = new Map(types.map((t) => [t.name, t]));
  }

  /** A skipper for the fields of one variant or struct, in order. */
  fields(fields: readonly IdlField[] | undefined, what: string, depth = 0): Skip {
    // An IDL is untrusted JSON: the declared type is what it should be, not what it is.
    const raw: unknown = fields;
    if (raw !== undefined && !Array.isArray(raw)) throw new IdlTypeError(`${what}: fields are not a list`);
    const list: readonly IdlField[] = fields ?? [];
    const skips = list.map((f, i) => this.type(fieldType(f), `${what} field ${i}`, depth + 1));
    return (reader) => {
      for (const skip of skips) skip(reader);
    };
  }

  type(type: IdlType, what: string, depth = 0): Skip {
    if (depth > MAX_DEPTH) throw new IdlTypeError(`${what}: types nest deeper than ${MAX_DEPTH}`);
    if (typeof type === 'string') return this.#primitive(type, what);
    if (!isRecord(type)) throw new IdlTypeError(`${what}: not a type`);
    if ('option' in type) {
      const inner = this.type(type['option'] as IdlType, what, depth + 1);
      return (r) => void r.option(() => inner(r), what);
    }
    if ('coption' in type) {
      const inner = this.type(type['coption'] as IdlType, what, depth + 1);
      return (r) => {
        const tag = r.u32(`${what} tag`);
        if (tag > 1) throw new BorshError(`${what} has COption tag ${tag}`);
        if (tag === 1) inner(r);
      };
    }
    if ('vec' in type) {
      const inner = this.type(type['vec'] as IdlType, what, depth + 1);
      return (r) => void r.vec(() => inner(r), what);
    }
    if ('array' in type) {
      const spec = type['array'];
      if (!Array.isArray(spec) || spec.length !== 2 || typeof spec[1] !== 'number' || !Number.isInteger(spec[1]) || spec[1] < 0 || spec[1] > MAX_BYTES)
        throw new IdlTypeError(`${what}: an array needs a fixed length`);
      const inner = this.type(spec[0] as IdlType, what, depth + 1);
      const length = spec[1];
      return (r) => {
        for (let i = 0; i < length; i++) inner(r);
      };
    }
    if ('defined' in type) {
      const name = definedName(type['defined']);
      if (name === null) throw new IdlTypeError(`${what}: a generic or malformed defined type`);
      return this.#defined(name, what, depth);
    }
    throw new IdlTypeError(`${what}: type ${JSON.stringify(type).slice(0, 60)} is not one jupbot can size`);
  }

  #primitive(type: string, what: string): Skip {
    if (type === 'bool') return (r) => void r.bool(what);
    if (type === 'string') return (r) => void r.string(what, MAX_BYTES);
    if (type === 'bytes') return (r) => void r.byteString(what, MAX_BYTES);
    const size = FIXED[type];
    if (size === undefined) throw new IdlTypeError(`${what}: unknown type ${type}`);
    return (r) => r.skip(size, what);
  }

  #defined(name: string, what: string, depth: number): Skip {
    const done = this.#compiled.get(name);
    if (done) return done;
    const def = this.#types.get(name);
    if (!def || typeof def.type !== 'object' || def.type === null) throw new IdlTypeError(`${what}: type ${name} is not defined in the IDL`);
    if (this.#compiling.has(name)) throw new IdlTypeError(`${what}: type ${name} refers to itself`);
    this.#compiling.add(name);
    try {
      let skip: Skip;
      if (def.type.kind === 'struct') {
        skip = this.fields(def.type.fields, name, depth);
      } else if (def.type.kind === 'enum') {
        const declared: unknown = def.type.variants;
        if (!Array.isArray(declared) || declared.length > 256) throw new IdlTypeError(`${what}: enum ${name} has no list of variants`);
        const variants = def.type.variants.map((v) => this.fields(v.fields, `${name}::${String(v.name)}`, depth));
        skip = (r) => {
          const tag = r.u8(`${name} tag`);
          const variant = variants[tag];
          if (!variant) throw new BorshError(`${name} has no variant ${tag}`);
          variant(r);
        };
      } else {
        throw new IdlTypeError(`${what}: type ${name} is neither a struct nor an enum`);
      }
      this.#compiled.set(name, skip);
      return skip;
    } finally {
      this.#compiling.delete(name);
    }
  }
}
