#!/usr/bin/env node
// Builds dist/vendor/dbml-core-lite.js: the two parts of @dbml/core this package uses, its T-SQL reader
// (`Parser.parseMSSQLToJSONv2`: the ANTLR T-SQL lexer, parser and visitor, and MssqlASTGen) and its DBML →
// DDL `exporter`, without the ANTLR grammars of the other dialects. @dbml/core ships one bundle of every
// grammar (MySQL, PostgreSQL, Oracle, Snowflake, T-SQL), all deserialised when it is required: ~300MB of
// RSS, where this copy costs about a third of that. src/dbml-core-lite.ts loads it (or @dbml/core itself
// when the package was built by tsc alone).
//
// How: @dbml/core's ES build (lib/index.mjs) keeps a `//#region <source file>` marker before each source
// module. The regions of the MySQL, PostgreSQL, Oracle and Snowflake ANTLR parsers and AST generators are
// left out (their top-level code only defines classes and deserialises their ATNs), and @dbml/core's ANTLR
// entry keeps its `mssql` case only (the others throw). The bundler placed a few shared declarations inside
// those regions (CompilerError, in MySQL's AST generator's): every name the kept code uses but no longer
// declares is found by a scope analysis (@babel/parser, @babel/traverse) and its declaration copied back
// from the left-out AST generator regions; a name declared nowhere there fails the build. The export list
// becomes `exporter`, as @dbml/core exports it, and `parseMssql(text)`, the `mssql` case itself. esbuild
// writes the result as CommonJS. @dbml/core's version is pinned exactly; a change of its layout fails this
// script (or test/dbml-core-lite.test.ts, which compares the copy's answers with @dbml/core's), never an
// import silently.
const fs = require('node:fs');
const path = require('node:path');
const { parse } = require('@babel/parser');
const traverse = require('@babel/traverse').default;
const esbuild = require('esbuild');

const packageDir = path.resolve(__dirname, '..');
const outfile = path.join(packageDir, 'dist', 'vendor', 'dbml-core-lite.js');
// lib/index.cjs (the package's exports do not list package.json) → the package's folder.
const dbmlDir = path.resolve(path.dirname(require.resolve('@dbml/core', { paths: [packageDir] })), '..');
const { version, license } = require(path.join(dbmlDir, 'package.json'));

const DIALECTS_LEFT_OUT = ['mysql', 'oraclesql', 'postgresql', 'postgres', 'snowflake'];
const LEFT_OUT = new RegExp(`^src/parse/ANTLR/(?:parsers|ASTGeneration)/(${DIALECTS_LEFT_OUT.join('|')})/`);
const ANTLR_ENTRY =
  /\nfunction (\w+)\(e, t\) \{\n\tlet n = new P\.InputStream\(e\), r = null, i = new (\w+)\(\);\n\tswitch \(t\) \{[\s\S]*?\n\t\tcase "mssql": \{\n([\s\S]*?)\t\t\tbreak;\n\t\t\}[\s\S]*?\n\}\n/;
/**
 * Names the kept code may use undeclared: globals; the UMD wrappers' guarded `define`, `self`, `window`; and
 * `field`, which @dbml/core itself uses undeclared (its deprecated schema.rb parser, never called here).
 */
const GLOBALS = new Set([
  ...Object.getOwnPropertyNames(globalThis),
  ...['require', 'module', 'exports', '__dirname', '__filename', 'arguments', 'undefined'],
  ...['define', 'self', 'window', 'field'],
]);
const EXPORTS = /\nexport \{([^}]*)\};\s*$/;

function fail(message) {
  console.error(`bundle-dbml-core: ${message} (@dbml/core ${version}; see scripts/bundle-dbml-core.js)`);
  process.exit(1);
}

/** Names used but not declared in `code` (an ES module), with where each is first used. */
function undeclared(code) {
  const names = new Map();
  traverse(parse(code, { sourceType: 'module' }), {
    ReferencedIdentifier(reference) {
      const { name, loc } = reference.node;
      if (!GLOBALS.has(name) && !reference.scope.hasBinding(name, true) && !names.has(name))
        names.set(name, loc?.start.line);
    },
  });
  return names;
}

/** Top-level declarations of a left-out region's code, by name: `var name = init` or a function's text. */
function declarations(code) {
  const found = new Map();
  for (const statement of parse(code, { sourceType: 'module' }).program.body) {
    if (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration')
      found.set(statement.id.name, code.slice(statement.start, statement.end));
    else if (statement.type === 'VariableDeclaration')
      for (const declarator of statement.declarations)
        if (declarator.id.type === 'Identifier' && declarator.init)
          found.set(
            declarator.id.name,
            `var ${declarator.id.name} = ${code.slice(declarator.init.start, declarator.init.end)};`,
          );
  }
  return found;
}

function liteSource(source) {
  const entry = ANTLR_ENTRY.exec(source);
  if (!entry) fail("@dbml/core's ANTLR entry (its `mssql` case) was not found in lib/index.mjs");
  const [entryText, entryName, errorListener, mssqlCase] = entry;
  const exported = EXPORTS.exec(source);
  const exporter = exported && /(?:^|,)\s*([\w$]+) as exporter\s*(?:,|$)/.exec(exported[1])?.[1];
  if (!exporter) fail('the export list (with `exporter`) at the end of lib/index.mjs was not found');
  const parser = /(?:^|,)\s*([\w$]+) as Parser\s*(?:,|$)/.exec(exported[1])?.[1];
  if (!parser) fail('the export list (with `Parser`) at the end of lib/index.mjs was not found');
  // The kept code, with a marker where each left-out region was; the regions' own code.
  const pieces = [];
  const leftOut = [];
  let at = 0;
  const region = /\/\/#region (\S+)\n/g;
  for (let match = region.exec(source); match; match = region.exec(source)) {
    const dialect = LEFT_OUT.exec(match[1])?.[1];
    if (!dialect) continue;
    const end = source.indexOf('//#endregion\n', match.index);
    if (end < 0) fail(`region ${match[1]} has no end`);
    pieces.push(source.slice(at, match.index));
    leftOut.push({ file: match[1], dialect, code: source.slice(match.index, end), rescued: [] });
    at = end + '//#endregion\n'.length;
    region.lastIndex = at;
  }
  pieces.push(source.slice(at));
  for (const dialect of DIALECTS_LEFT_OUT)
    if (!leftOut.some((left) => left.dialect === dialect)) fail(`no region of ${dialect} found to leave out`);
  const entryReplacement = `
/** @dbml/core's ANTLR entry with its \`mssql\` case only (the other grammars are not in this copy). */
function ${entryName}(e, t) {
\tif (t !== "mssql") throw Error(\`@dbml/core's \${t} grammar is left out of this copy (packages/ddl/scripts/bundle-dbml-core.js)\`);
\treturn parseMssql(e);
}
`;
  const assemble = () =>
    pieces
      .map((piece, index) => {
        const left = leftOut[index];
        return left ? `${piece}${left.rescued.join('\n')}\n` : piece;
      })
      .join('')
      .replace(entryText, entryReplacement)
      .replace(EXPORTS, '\n') +
    `
/** @dbml/core's Parser.parseMSSQLToJSONv2: T-SQL text → its JSON model; throws the syntax errors (an array). */
function parseMssql(e) {
\tlet n = new P.InputStream(e), r = null, i = new ${errorListener}();
\t{
${mssqlCase}\t}
\treturn r;
}
/** @dbml/core's Parser.parse(text, 'dbmlv2'): DBML text → its Database model (with source positions). */
function parseDbml(e) {
\treturn ${parser}.parse(e, "dbmlv2");
}
export { ${exporter} as exporter, parseMssql, parseDbml };
`;
  // Declarations the kept code still needs, copied back from the left-out AST generators, until none is missing.
  const generators = leftOut
    .filter((left) => left.file.includes('/ASTGeneration/'))
    .map((left) => ({ left, declared: declarations(left.code) }));
  for (let round = 0; round < 10; round++) {
    const code = assemble();
    const missing = undeclared(code);
    if (missing.size === 0) return code;
    for (const [name, line] of missing) {
      const home = generators.find(({ declared }) => declared.has(name));
      if (!home)
        fail(`\`${name}\` (used at line ${line} of the copy) is declared in no left-out AST generator`);
      home.left.rescued.push(home.declared.get(name));
      home.declared.delete(name);
    }
  }
  fail('declarations still missing after 10 rounds');
}

async function main() {
  // Built already from this @dbml/core by this script: nothing to do.
  const banner = `from @dbml/core ${version} `;
  if (
    fs.existsSync(outfile) &&
    fs.readFileSync(outfile, 'utf8').slice(0, 300).includes(banner) &&
    fs.statSync(outfile).mtimeMs > fs.statSync(__filename).mtimeMs
  )
    return;
  const source = fs.readFileSync(path.join(dbmlDir, 'lib', 'index.mjs'), 'utf8');
  const result = await esbuild.build({
    stdin: { contents: liteSource(source), resolveDir: path.join(dbmlDir, 'lib'), sourcefile: 'index.mjs' },
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['@dbml/*'],
    minifyWhitespace: true,
    legalComments: 'none',
    banner: {
      js: `// Generated by packages/ddl/scripts/bundle-dbml-core.js ${banner}(${license}, https://github.com/holistics/dbml): its T-SQL reader and DBML exporter, without the other dialects' grammars.`,
    },
    logLevel: 'warning',
  });
  if (result.errors.length > 0) process.exit(1);
  // The file must load, read a table and write DDL from DBML, as this package will use it.
  const lite = require(outfile);
  const parsed = lite.parseMssql('CREATE TABLE [t] ([id] int NOT NULL PRIMARY KEY);');
  if (parsed?.tables?.[0]?.name !== 't') fail('the built copy did not read a one-table T-SQL script');
  if (!/CREATE TABLE/i.test(lite.exporter.export('Table t {\n  id int [pk]\n}\n', 'postgres')))
    fail('the built copy did not write DDL from a one-table DBML');
  if (lite.parseDbml('Table t {\n  id int [pk]\n}\n')?.schemas?.[0]?.tables?.[0]?.name !== 't')
    fail('the built copy did not read a one-table DBML into its model');
  console.log(
    `bundle-dbml-core: ${path.relative(packageDir, outfile)} (${Math.round(fs.statSync(outfile).size / 1024)}KB)`,
  );
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
