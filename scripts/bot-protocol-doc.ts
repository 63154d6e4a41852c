/**
 * The games reference of docs/bot-protocol.md, rendered from the games themselves so it cannot drift
 * from them: for every game of the catalog (`ENTRIES` in packages/catalog/src/registry.ts, test games
 * included), its decision prompts (`Game.prompts`) and the fields of its observation, read with the
 * TypeScript compiler from the observation type its game object declares (`Game<S, C, O, P>`), with
 * their doc comments and the game's own types they use.
 *
 *   node --import tsx scripts/bot-protocol-doc.ts           rewrite the section in the doc
 *   node --import tsx scripts/bot-protocol-doc.ts --check   exit 1 if the committed doc differs
 *
 * test/bot-protocol-doc.test.ts runs the check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { AnyGame } from '@salient/engine';
import { ENTRIES } from '@salient/catalog';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DOC = join(ROOT, 'docs/bot-protocol.md');
const REGISTRY = join(ROOT, 'packages/catalog/src/registry.ts');
export const BEGIN = '<!-- games:begin (generated from the games by `npm run docs:bot-protocol`; edit the games, not this) -->';
export const END = '<!-- games:end -->';

/** One field of an observation, as declared. */
export interface ObservationField {
  name: string;
  optional: boolean;
  type: string;
  doc: string;
}

/** What the compiler says of one registered game. */
export interface GameTypes {
  /** The option type `C`, and the observation type's name. */
  choice: string;
  observation: string;
  fields: ObservationField[];
  /** Declarations (interfaces, type aliases) of the game's own types the fields use, in order of first use. */
  types: string[];
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * The observation and option types of every game in the catalog's `ENTRIES`, in its order, read
 * from the source by the compiler.
 */
export function readGameTypes(): GameTypes[] {
  const config = ts.parseJsonConfigFileContent(JSON.parse(readFileSync(join(ROOT, 'tsconfig.base.json'), 'utf8')) as object, ts.sys, ROOT);
  const program = ts.createProgram([REGISTRY], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(REGISTRY);
  if (!source) throw new Error(`the compiler could not read ${REGISTRY}`);
  let entries: ts.ArrayLiteralExpression | undefined;
  source.forEachChild(function find(node) {
    if (ts.isVariableDeclaration(node) && node.name.getText() === 'ENTRIES' && node.initializer && ts.isArrayLiteralExpression(node.initializer)) entries = node.initializer;
    else node.forEachChild(find);
  });
  if (!entries) throw new Error(`${relative(ROOT, REGISTRY)} has no ENTRIES array literal; the doc generator reads the games from it`);
  return entries.elements.map((element) => {
    const game = ts.isObjectLiteralExpression(element)
      ? element.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === 'game')
      : undefined;
    if (!game) throw new Error(`an entry of ENTRIES is not { game: ... }: ${element.getText()}`);
    const args = checker.getTypeArguments(checker.getTypeAtLocation(game.initializer) as ts.TypeReference);
    const [, choice, observation] = args;
    if (!choice || !observation) throw new Error(`${game.initializer.getText()} is not declared as a Game<S, C, O, P>; give its type arguments`);
    return { choice: checker.typeToString(choice), observation: checker.typeToString(observation), ...fieldsOf(checker, observation) };
  });
}

function fieldsOf(checker: ts.TypeChecker, type: ts.Type): { fields: ObservationField[]; types: string[] } {
  const fields: ObservationField[] = [];
  const types: string[] = [];
  const seen = new Set<ts.Node>();
  // The game's own types the fields use, found by walking the type nodes; library and engine types are left out.
  const collect = (node: ts.Node): void => {
    if (ts.isTypeReferenceNode(node)) {
      let symbol = checker.getSymbolAtLocation(node.typeName);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const decl = symbol?.declarations?.[0];
      if (decl && (ts.isInterfaceDeclaration(decl) || ts.isTypeAliasDeclaration(decl)) && isGameSource(decl.getSourceFile().fileName) && !seen.has(decl)) {
        seen.add(decl);
        types.push(decl.getFullText().replace(/^\s*\n/, '').replace(/^[ \t]*\n/gm, ''));
        decl.forEachChild(collect);
      }
    }
    node.forEachChild(collect);
  };
  for (const symbol of checker.getPropertiesOfType(type)) {
    const decl = symbol.valueDeclaration ?? symbol.declarations?.[0];
    if (!decl || !ts.isPropertySignature(decl)) throw new Error(`observation field ${symbol.name} is not declared as a property signature`);
    fields.push({
      name: symbol.name,
      optional: decl.questionToken !== undefined,
      type: decl.type ? oneLine(decl.type.getText()) : 'unknown',
      doc: docOf(decl),
    });
    if (decl.type) collect(decl.type);
  }
  return { fields, types };
}

/** Every doc comment block above a field (the compiler's own documentation keeps only the last). */
function docOf(decl: ts.Node): string {
  const text = decl.getSourceFile().text;
  const blocks = (ts.getLeadingCommentRanges(text, decl.getFullStart()) ?? [])
    .map((r) => text.slice(r.pos, r.end))
    .filter((c) => c.startsWith('/**'))
    .map((c) => c.slice(3, -2).replace(/^\s*\* ?/gm, ''));
  return oneLine(blocks.join(' '));
}

/** A file of a game's own code: not a library, not the engine's contract. */
function isGameSource(file: string): boolean {
  const rel = relative(ROOT, file).split(sep).join('/');
  return !rel.startsWith('..') && !rel.includes('node_modules/') && !rel.startsWith('packages/engine/src/contract');
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** The section between {@link BEGIN} and {@link END}, markers included. */
export function renderGamesSection(types: GameTypes[] = readGameTypes(), games: readonly AnyGame[] = ENTRIES.map((e) => e.game)): string {
  if (types.length !== games.length) throw new Error(`the compiler found ${types.length} games in ENTRIES, the catalog has ${games.length}`);
  const out: string[] = [BEGIN, ''];
  games.forEach((game, i) => {
    const t = types[i]!;
    const hidden = ENTRIES[i]?.hidden ? ' (a test game: `salient games --all` lists it)' : '';
    if (!game.prompts || Object.keys(game.prompts).length === 0) {
      throw new Error(`game ${game.id} lists no prompts: give it Game.prompts (every prompt its pending may ask, what it asks and its options)`);
    }
    out.push(`### \`${game.id}\`: ${game.name}${hidden}`, '');
    out.push(`Options (\`options[i]\`) are JSON of type \`${t.choice}\`; \`labels[i]\` is each one's text.`, '');
    out.push('| prompt | what is asked | options (`labels`) |', '| --- | --- | --- |');
    for (const [name, p] of Object.entries(game.prompts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push(`| \`${name}\` | ${cell(p.asks)} | ${cell(p.options)} |`);
    out.push('');
    out.push(`The \`observation\` (\`${t.observation}\`) is a JSON object with these fields (\`?\`: present only when it applies):`, '');
    out.push('| field | type | what it holds |', '| --- | --- | --- |');
    for (const f of t.fields) out.push(`| \`${f.name}\`${f.optional ? '?' : ''} | \`${cell(f.type)}\` | ${cell(f.doc)} |`);
    out.push('');
    if (t.types.length) {
      out.push(`<details><summary>The ${game.name} types these fields use</summary>`, '', '```ts', ...t.types.map((d) => d.trimEnd()), '```', '', '</details>', '');
    }
  });
  out.push(END);
  return out.join('\n');
}

/** `doc` with its generated section replaced by `section`. */
export function withSection(doc: string, section: string): string {
  const from = doc.indexOf(BEGIN);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${relative(ROOT, DOC)} has no section between '${BEGIN}' and '${END}'; put both markers where the games reference goes`);
  return doc.slice(0, from) + section + doc.slice(to + END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const doc = readFileSync(DOC, 'utf8');
  const next = withSection(doc, renderGamesSection());
  if (process.argv.includes('--check')) {
    if (next !== doc) {
      process.stderr.write(`${relative(ROOT, DOC)} is out of date with the games: run npm run docs:bot-protocol and commit it.\n`);
      process.exit(1);
    }
  } else if (next !== doc) {
    writeFileSync(DOC, next);
    process.stdout.write(`${relative(ROOT, DOC)}: games reference rewritten.\n`);
  } else process.stdout.write(`${relative(ROOT, DOC)}: up to date.\n`);
}
