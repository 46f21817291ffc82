// Typecheck and lint on one TypeScript program. `tsc --noEmit` and ESLint's type-aware rules each
// built the same program of ~1,200 files (tsconfig.json) and asked it the same types: run one after
// the other in separate processes that was 120 s of CPU on a 2-core machine, here about 70. The
// program is built from tsconfig.json as tsc builds it, its diagnostics are what `tsc --noEmit`
// reports (syntactic, options, global and semantic), and ESLint is handed the program itself
// (typescript-eslint's `parserOptions.programs`) instead of starting a project service; a .ts file
// outside the program is a parse error, not a file left unlinted. `npm run typecheck` and
// `npm run lint` still run each tool on its own.
import { performance } from 'node:perf_hooks';
import { ESLint } from 'eslint';
import ts from 'typescript';

const MAX_WARNINGS = 0;

function seconds(since) {
  return ((performance.now() - since) / 1000).toFixed(1);
}

function typecheck() {
  const file = ts.findConfigFile('.', ts.sys.fileExists, 'tsconfig.json');
  if (file === undefined) throw new Error('no tsconfig.json in the working directory');
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(file, {}, host);
  if (parsed === undefined) throw new Error(`${file} could not be read`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: parsed.errors,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  return { program, diagnostics };
}

const began = performance.now();
const { program, diagnostics } = typecheck();
const formatHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => '\n' };
if (diagnostics.length > 0) process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
process.stdout.write(`typecheck: ${diagnostics.length} error(s) in ${program.getRootFileNames().length} files, ${seconds(began)} s\n`);

const linting = performance.now();
const eslint = new ESLint({
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, programs: [program] } } }],
});
const results = await eslint.lintFiles(['.']);
const errors = results.reduce((n, r) => n + r.errorCount, 0);
const warnings = results.reduce((n, r) => n + r.warningCount, 0);
const report = await (await eslint.loadFormatter('stylish')).format(results);
if (report.trim() !== '') process.stdout.write(report.endsWith('\n') ? report : `${report}\n`);
process.stdout.write(`lint: ${errors} error(s), ${warnings} warning(s) (at most ${MAX_WARNINGS}) in ${results.length} files, ${seconds(linting)} s\n`);

if (diagnostics.length > 0 || errors > 0 || warnings > MAX_WARNINGS) process.exitCode = 1;
