/**
 * Finds the strings the source uses as error codes, by where they stand rather than how they look:
 * an upper-snake literal is also an environment variable, a SQLite code, a map key. A position is a
 * code position when the value lands in
 * - the first argument of an error class (`new …Error(`, `new …Refusal(`, `super(` in one);
 * - a property, variable or parameter named `code`, `reason`, `failure`, `errorCode` or `error_code`,
 *   or one whose type annotation names a code type (`ErrorCode`, `CodeOf<…>`, `JupiterErrorCode`,
 *   `RefusalReason`, `SwapDecodeFailure`: a name ending in Code, Reason or Failure);
 * - an argument of a function of the same file whose parameter there is such a name or type;
 * - a `return` of a function whose return type is a code type;
 * - a comparison or `case` against something named like a code (`error.code === …`);
 * - a literal type in such a declaration (`declare readonly code: 'GUARD_REFUSED'`).
 * The value may reach it through parentheses, `?:` branches, `??`/`||`, arrays, `as`, or an object
 * literal bound to a code-typed name. A constant (`const NOT_FOUND = 'VAULT_ORDER_NOT_FOUND'`) counts
 * where its name stands in a code position. Syntax only, no type checker: it stays fast.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const UPPER_SNAKE_LITERAL = /'[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+'/;
/** Names that hold a code. */
const CODE_NAME = /^(?:code|reason|failure|errorCode|error_code)$/;
/** The same, as a word inside an expression (`error.code`, `text(data.reason)`). */
const CODE_NAME_WORD = /\b(?:code|reason|failure|errorCode|error_code)\b/;
/** Type names that are codes: `ErrorCode`, `CodeOf<'guard'>`, `RefusalReason`, `SwapDecodeFailure`. */
const CODE_TYPE = /\bCodeOf\b|\w(?:Code|Reason|Failure)\b/;

/** One string found in a code position: the code, and the file and line it is on. */
export interface CodeUse {
  readonly code: string;
  readonly file: string;
  readonly line: number;
}

interface Parsed {
  readonly file: string;
  readonly source: ts.SourceFile;
  /** The file's own functions by name: each parameter's name and type annotation text. */
  readonly functions: Map<string, readonly { name: string; type: string }[]>;
}

const nameOf = (node: ts.Node | undefined): string | undefined =>
  node === undefined ? undefined : ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteral(node) ? node.text : undefined;

/** The last name of a callee: `fail`, `this.fail`, `errors.fail` all give `fail`. */
const calleeName = (expression: ts.Expression): string | undefined =>
  ts.isPropertyAccessExpression(expression) ? expression.name.text : ts.isIdentifier(expression) ? expression.text : undefined;

/**
 * The file's functions by name, with their parameters: declared ones, and names typed with one of the
 * file's function types (`refuse: Refuse`, or `const refuse = refuser(…)` where `refuser` returns one).
 */
function functionsOf(source: ts.SourceFile): Parsed['functions'] {
  const functions = new Map<string, { name: string; type: string }[]>();
  const signatures = new Map<string, { name: string; type: string }[]>();
  const returns = new Map<string, string>();
  const params = (fn: ts.SignatureDeclaration): { name: string; type: string }[] =>
    fn.parameters.map((p) => ({ name: nameOf(p.name) ?? '', type: p.type?.getText(source) ?? '' }));
  const declare = (name: string | undefined, fn: ts.SignatureDeclaration): void => {
    if (name === undefined) return;
    functions.set(name, params(fn));
    if (fn.type) returns.set(name, fn.type.getText(source));
  };
  const typed: { name: string; type: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeAliasDeclaration(node) && ts.isFunctionTypeNode(node.type)) signatures.set(node.name.text, params(node.type));
    else if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) declare(nameOf(node.name), node);
    else if (ts.isVariableDeclaration(node) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)))
      declare(nameOf(node.name), node.initializer);
    else if ((ts.isParameter(node) || ts.isVariableDeclaration(node)) && ts.isIdentifier(node.name)) {
      const init = ts.isVariableDeclaration(node) ? node.initializer : undefined;
      const type = node.type?.getText(source) ?? (init && ts.isCallExpression(init) ? `=>${calleeName(init.expression) ?? ''}` : '');
      if (type !== '') typed.push({ name: node.name.text, type });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const { name, type } of typed) {
    const signature = signatures.get(type.startsWith('=>') ? (returns.get(type.slice(2)) ?? '') : type);
    if (signature && !functions.has(name)) functions.set(name, signature);
  }
  return functions;
}

/** The function a `return` (or an arrow's expression body) belongs to. */
function enclosingFunction(node: ts.Node): ts.SignatureDeclaration | undefined {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) if (ts.isFunctionLike(n)) return n;
  return undefined;
}

type Declaration = ts.VariableDeclaration | ts.ParameterDeclaration | ts.PropertyDeclaration | ts.PropertySignature | ts.PropertyAssignment;

const isDeclaration = (node: ts.Node): node is Declaration =>
  ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isPropertyDeclaration(node) || ts.isPropertySignature(node) || ts.isPropertyAssignment(node);

/** A declaration whose type annotation is a code type, or an `as`/`satisfies` one. */
function typedAsCode(node: ts.Node, source: ts.SourceFile): boolean {
  const type =
    ts.isAsExpression(node) || ts.isSatisfiesExpression(node) ? node.type : isDeclaration(node) && !ts.isPropertyAssignment(node) ? node.type : undefined;
  return type !== undefined && CODE_TYPE.test(type.getText(source));
}

/** A declaration that says it holds a code, by its name or its type annotation. */
function namedAsCode(node: ts.Node, source: ts.SourceFile): boolean {
  if (!isDeclaration(node)) return false;
  const name = nameOf(node.name);
  return (name !== undefined && CODE_NAME.test(name)) || typedAsCode(node, source);
}

/** Whether the value `node` (a string literal or a constant's name) is used as an error code. */
function inCodePosition(node: ts.Node, parsed: Parsed): boolean {
  const { source } = parsed;
  // Once the value is a field of an object literal, only a code type on what the object is bound to makes it a code.
  let inObject = false;
  let child: ts.Node = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    // Ways a value passes through unchanged.
    if (ts.isParenthesizedExpression(parent) || ts.isArrayLiteralExpression(parent) || ts.isSpreadElement(parent) || ts.isNonNullExpression(parent)) continue;
    if (ts.isConditionalExpression(parent) && child !== parent.condition) continue;
    if (ts.isBinaryExpression(parent) && child === parent.right && ['??', '||', '&&'].includes(parent.operatorToken.getText(source))) continue;
    if (ts.isBinaryExpression(parent) && child === parent.left && ['??', '||'].includes(parent.operatorToken.getText(source))) continue;
    if (ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent)) {
      if (typedAsCode(parent, source)) return true;
      continue;
    }
    // A literal type: up through unions and arrays to what declares it.
    if (ts.isLiteralTypeNode(parent) || ts.isUnionTypeNode(parent) || ts.isParenthesizedTypeNode(parent) || ts.isArrayTypeNode(parent)) continue;
    if (ts.isTypeAliasDeclaration(parent)) return CODE_TYPE.test(parent.name.text);
    if (ts.isPropertyAssignment(parent)) {
      if (child === parent.name) return false;
      if (!inObject && namedAsCode(parent, source)) return true;
      inObject = true;
      continue; // Up to the object literal, which may be bound to a code-typed name.
    }
    if (ts.isObjectLiteralExpression(parent)) continue;
    if (inObject) return typedAsCode(parent, source);
    if (ts.isNewExpression(parent)) {
      const name = calleeName(parent.expression) ?? '';
      return parent.arguments?.[0] === child && /(?:Error|Refusal)$/.test(name);
    }
    if (ts.isCallExpression(parent)) {
      if (child === parent.expression) return false;
      const index = parent.arguments.indexOf(child as ts.Expression);
      if (parent.expression.kind === ts.SyntaxKind.SuperKeyword) return index === 0;
      const param = parsed.functions.get(calleeName(parent.expression) ?? '')?.[index];
      return param !== undefined && (CODE_NAME.test(param.name) || CODE_TYPE.test(param.type));
    }
    if (ts.isBinaryExpression(parent)) {
      if (!['===', '!==', '==', '!='].includes(parent.operatorToken.getText(source))) return false;
      const other = child === parent.left ? parent.right : parent.left;
      return CODE_NAME_WORD.test(other.getText(source));
    }
    if (ts.isCaseClause(parent)) return child === parent.expression && CODE_NAME_WORD.test(parent.parent.parent.expression.getText(source));
    if (ts.isReturnStatement(parent) || (ts.isArrowFunction(parent) && child === parent.body)) {
      const type = enclosingFunction(ts.isArrowFunction(parent) ? child : parent)?.type;
      return type !== undefined && CODE_TYPE.test(type.getText(source));
    }
    return namedAsCode(parent, source);
  }
  return false;
}

/** A source file's path and text. */
export interface SourceText {
  readonly file: string;
  readonly text: string;
}

/** Reads `files` for {@link codeUses}. */
export const readSources = (files: readonly string[]): SourceText[] => files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));

/**
 * Every error code `texts` use, with where. A file without an upper-snake literal is parsed only
 * when it names one of the constants found.
 */
export function codeUses(texts: readonly SourceText[]): CodeUse[] {
  const parse = (file: string, text: string): Parsed => {
    // Comments are not read: skipping JSDoc roughly halves the parse.
    const source = ts.createSourceFile(file, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, true);
    return { file, source, functions: functionsOf(source) };
  };
  const parsed = texts.filter(({ text }) => UPPER_SNAKE_LITERAL.test(text)).map(({ file, text }) => parse(file, text));
  // Constants whose value is an upper-snake string, by name (a name that is reused is ignored).
  const constants = new Map<string, string | null>();
  for (const { source } of parsed) {
    const visit = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isStringLiteral(node.initializer)) {
        const value = node.initializer.text;
        if (UPPER_SNAKE.test(value)) constants.set(node.name.text, constants.has(node.name.text) ? null : value);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const names = [...constants.keys()];
  const mentions = names.length === 0 ? null : new RegExp(`\\b(?:${names.join('|')})\\b`);
  const seen = new Set(parsed.map((p) => p.file));
  for (const { file, text } of texts) if (!seen.has(file) && mentions?.test(text)) parsed.push(parse(file, text));

  const uses: CodeUse[] = [];
  for (const p of parsed) {
    const visit = (node: ts.Node): void => {
      let code: string | undefined;
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && UPPER_SNAKE.test(node.text)) code = node.text;
      else if (ts.isIdentifier(node) && !(ts.isVariableDeclaration(node.parent) && node.parent.name === node)) {
        const value = constants.get(node.text);
        if (typeof value === 'string') code = value;
      }
      if (code !== undefined && inCodePosition(node, p)) {
        uses.push({ code, file: p.file, line: p.source.getLineAndCharacterOfPosition(node.getStart(p.source)).line + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(p.source);
  }
  return uses;
}
