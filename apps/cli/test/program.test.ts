/**
 * The program without its command modules: `salient`, `--help` and `--version` show every command
 * from placeholders (summaries.ts), and that list must read exactly as the modules' own; a command
 * line loads only the module of the command it names. The programs are built in one child under tsx:
 * in this process, vitest's transform of every command module's sources took over a minute on a
 * loaded 2-core machine, the child a few seconds.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_SUMMARIES } from '../src/commands/summaries.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Command lines whose registered commands (and subcommands) the child reports. */
const LINES = [
  ['play', '--seed', '3'],
  ['query', 'SELECT 1'],
  ['help', 'serve'],
  ['--version'],
  ['pley'],
  ['tournament', 'list'],
  ['tournament', 'run', 'spec.yaml'],
  ['tournament', 'status', 'abc'],
  ['tournament', '--help'],
];

interface Facts {
  help: string;
  placeholders: string;
  lines: Record<string, { term: string; description: string }>;
  registered: { commands: string[]; subcommands: string[]; options: number }[];
}

let facts: Facts;
beforeAll(() => {
  const script = `
    import { Help } from 'commander';
    import { buildProgram } from './apps/cli/src/program.ts';
    const argv = (args) => ['node', 'salient', ...args];
    const modules = await buildProgram(argv(['--help']), true);
    const help = new Help();
    const registered = [];
    for (const line of ${JSON.stringify(LINES)}) {
      const p = await buildProgram(argv(line));
      registered.push({ commands: p.commands.map((c) => c.name()), subcommands: p.commands[0].commands.map((c) => c.name()), options: p.commands[0].options.length });
    }
    process.stdout.write(JSON.stringify({
      help: modules.helpInformation(),
      placeholders: (await buildProgram(argv(['--help']))).helpInformation(),
      lines: Object.fromEntries(modules.commands.map((c) => [c.name(), { term: help.subcommandTerm(c), description: c.description() }])),
      registered,
    }));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the child failed (${r.status}): ${r.stderr}`);
  facts = JSON.parse(r.stdout) as Facts;
}, 180_000);

describe('salient --help from placeholders', () => {
  it('is the help of the program with every command module registered', () => {
    // Each line on its own first, so a failure names the command whose options or arguments changed.
    expect(facts.lines).toEqual(COMMAND_SUMMARIES);
    expect(facts.placeholders).toBe(facts.help);
    expect(facts.help).toMatch(/^Usage: salient \[options\] \[command\]/);
  });

  it('registers one command module when the line names one, and the placeholders otherwise', () => {
    const [play, query, serve, version, typo] = facts.registered;
    expect(play?.commands).toEqual(['play']);
    // The real command, not a placeholder (which has no options).
    expect(play?.options).toBeGreaterThan(0);
    expect(query?.commands).toEqual(['report', 'query']);
    expect(serve?.commands).toEqual(['serve']);
    expect(version?.commands).toEqual(Object.keys(COMMAND_SUMMARIES));
    expect(typo?.commands).toEqual(Object.keys(COMMAND_SUMMARIES));
    expect(version?.options).toBe(0);
  });

  it("registers only the tournament subcommands' own module, and all three for tournament's help", () => {
    const [list, run, status, help] = facts.registered.slice(5).map((r) => r.subcommands);
    expect(list).toEqual(['list', 'export']);
    expect(run).toEqual(['run']);
    expect(status).toEqual(['submit', 'status', 'retry', 'cancel']);
    expect(help).toEqual(['run', 'submit', 'status', 'retry', 'cancel', 'list', 'export']);
  });
});
