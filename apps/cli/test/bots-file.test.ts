/**
 * `--bots FILE` on the commands that send specs to workers or run as one: `tournament submit` holds
 * a spec to the bots file as the workers will (refusing before anything is queued), and `worker`
 * refuses a bots file it cannot read before it starts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { salientEntry } from '../../../test/support/salient-cli.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'salient-cli-bots-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Nothing listens there: a command that gets as far as Redis says so. */
const NO_REDIS = 'redis://127.0.0.1:1';

function salient(...args: string[]): { code: number | null; stderr: string } {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  delete env.SALIENT_BOTS_FILE;
  const r = spawnSync(process.execPath, [...salientEntry(), ...args], { cwd: root, encoding: 'utf8', env });
  return { code: r.status, stderr: r.stderr };
}

writeFileSync(join(tmp, 'bots.yaml'), 'bots:\n  pybot: { command: [python3, random_bot.py] }\n');
const spec = (bot: string) => {
  const path = join(tmp, `spec-${bot.replace(/\W+/g, '-')}.yaml`);
  writeFileSync(path, `id: cli-bots\ngame: blitz\nscenarios: [A]\nentrants: [random, ${JSON.stringify(bot)}]\ngamesPerPairing: 2\n`);
  return path;
};

describe('salient tournament submit --bots', () => {
  it('refuses a cmd: entrant the bots file does not allow, saying the operator must register it, before reaching Redis', () => {
    const r = salient('tournament', 'submit', spec("cmd:sh -c 'touch /tmp/x'"), '--redis', NO_REDIS, '--bots', join(tmp, 'bots.yaml'));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^salient: .*invalid tournament spec \(1 problem\)/);
    expect(r.stderr).toMatch(/entrants\[1\]\.bot: cmd:sh -c 'touch \/tmp\/x' runs a command on whichever worker plays it.*The operator must register the bot in the bots file .*bots\.yaml/);
    expect(r.stderr).not.toMatch(/Redis/);
  });
});

describe('salient worker --bots', () => {
  it('refuses to start on a bots file it cannot read', () => {
    const r = salient('worker', '--redis', NO_REDIS, '--no-telemetry', '--bots', join(tmp, 'missing.yaml'));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^salient: Cannot read the bots file .*missing\.yaml \(ENOENT\)/);
  });
});
