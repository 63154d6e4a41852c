/**
 * Registered bots (`ext:<name>`, from the operator's bots file) in tournament specs and on the local
 * pool: the spec takes the registered version, a spec from elsewhere is held to the file's allow
 * rules, and the pool's game threads start the registered program in a clean environment.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBotsFile } from '@salient/bots';
import { parseTournamentSpec, planTournament } from '../src/index.ts';
import { runLocalTournament } from '../src/local/index.ts';

const tmp = mkdtempSync(join(tmpdir(), 'salient-registered-bots-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// A Node bot that writes its environment to argv[2] and always picks the first option.
writeFileSync(
  join(tmp, 'env-bot.mjs'),
  `import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
writeFileSync(process.argv[2], JSON.stringify(process.env));
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.type === 'hello') process.stdout.write(JSON.stringify({ type: 'hello', name: 'env-bot', version: '1', games: ['*'] }) + '\\n');
  else if (msg.type === 'decide') process.stdout.write(JSON.stringify({ type: 'choice', index: 0 }) + '\\n');
  else break;
}
`,
);
writeFileSync(join(tmp, 'bots.yaml'), `bots:\n  envbot: { command: ["${process.execPath}", env-bot.mjs, env.json], env: { BOT_LEVEL: "2" }, version: "7" }\n`);

const spec = (entrant: string) => `id: registered\ngame: blitz\nscenarios: [A]\nentrants: [random, ${JSON.stringify(entrant)}]\ngamesPerPairing: 2\ndecisionCap: 20\n`;

describe('registered bots in tournaments', () => {
  it('an ext: entrant takes its registered version; a pinned other version, an unknown name and, from elsewhere, a cmd: are refused by path', async () => {
    const bots = await loadBotsFile(join(tmp, 'bots.yaml'));
    const s = await parseTournamentSpec(spec('ext:envbot'), 'spec.yaml', { bots });
    expect(s.entrants[1]).toEqual({ name: 'ext:envbot', bot: 'ext:envbot', version: '7' });
    // A stored spec is planned again where no bots file is at hand (the API's SPRT view): same plan.
    expect((await planTournament(s)).matches).toEqual((await planTournament(s, { bots })).matches);

    const pinned = 'id: p\ngame: blitz\nscenarios: [A]\nentrants: [random, { bot: "ext:envbot", version: "6" }]\n';
    await expect(parseTournamentSpec(pinned, 'spec.yaml', { bots })).rejects.toMatchObject({ issues: [{ path: 'entrants[1].version', message: expect.stringContaining('pins ext:envbot version 6') }] });
    await expect(parseTournamentSpec(spec('ext:other'), 'spec.yaml', { bots })).rejects.toMatchObject({ issues: [{ path: 'entrants[1].bot', message: expect.stringContaining("Unknown registered bot 'other'") }] });
    // The user is the operator on this machine; a spec for the queue is held to the file.
    await expect(parseTournamentSpec(spec('cmd:sh -c true'), 'spec.yaml', { bots })).resolves.toBeDefined();
    await expect(parseTournamentSpec(spec('cmd:sh -c true'), 'spec.yaml', { bots, submitted: true })).rejects.toMatchObject({
      issues: [{ path: 'entrants[1].bot', message: expect.stringMatching(/^cmd:sh -c true runs a command on whichever worker plays it.*The operator must register the bot/) }],
    });
  });

  it('the local pool plays a registered bot, which sees none of this process environment', async () => {
    const bots = await loadBotsFile(join(tmp, 'bots.yaml'));
    const plan = await planTournament(await parseTournamentSpec(spec('ext:envbot'), 'spec.yaml', { bots }));
    const saved = process.env.SALIENT_CLICKHOUSE_PASSWORD;
    process.env.SALIENT_CLICKHOUSE_PASSWORD = 'local-secret-3301';
    let r;
    try {
      r = await runLocalTournament({ plan, threads: 1, bots });
    } finally {
      if (saved === undefined) delete process.env.SALIENT_CLICKHOUSE_PASSWORD;
      else process.env.SALIENT_CLICKHOUSE_PASSWORD = saved;
    }
    expect(r.outcomes.map((o) => o.kind)).toEqual(['adjudicated', 'adjudicated']);
    const env = JSON.parse(readFileSync(join(tmp, 'env.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(env).filter((k) => !/^(PATH|HOME|USER|LOGNAME|LANG|LANGUAGE|TZ|TMPDIR|LC_[A-Z]+|BOT_LEVEL)$/.test(k))).toEqual([]);
    expect(env.BOT_LEVEL).toBe('2');
    expect(JSON.stringify(env)).not.toContain('local-secret-3301');
  });
});
