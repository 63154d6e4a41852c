/**
 * Tagged runs: a suite run recorded in the telemetry store under a tag (its tournament id), to be a
 * baseline later without a file. The tag's tournament record keeps the suite's spec hash; its match,
 * impulse and event rows give back the same game records a file would hold.
 */
import { SalientError } from '@salient/engine';
import type { Telemetry } from '@salient/telemetry';
import { TOURNAMENT_ID, TOURNAMENT_ID_RULE } from '@salient/scheduler';
import { BASELINE_FORMAT, BASELINE_VERSION, type Baseline } from './baseline.ts';
import { gameKey, type GameRecord, type ImpulseRecord } from './record.ts';
import type { SuiteRun } from './run.ts';

/**
 * A tag names one run in the store: it becomes the run's tournament id, so it follows the same rule
 * (version tags such as `v0.12` or `2026.11-rc1` fit; nothing that would break a Redis key, a URL or
 * the SQL literal it goes into).
 */
export function checkTag(tag: string, flag = '--tag'): string {
  if (!TOURNAMENT_ID.test(tag)) {
    throw new SalientError('BAD_ARGUMENT', `${flag}: '${tag}' is not a usable tag; use ${TOURNAMENT_ID_RULE}.`);
  }
  return tag;
}

/** Record the run's tournament row, so the tag can be found with its suite's spec hash. */
export async function recordTaggedRun(t: Telemetry, tag: string, run: SuiteRun, startedAt: Date): Promise<void> {
  await t.recordTournament({
    id: tag,
    name: `regression suite ${run.suite.id}`,
    game: run.facts.game,
    specHash: run.suite.specHash,
    planned: run.games.length,
    executor: 'local',
    state: 'finished',
    startedAt,
  });
}

type Row = Record<string, unknown>;
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const nums = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);

/** The run tagged `tag`, as a baseline. Throws `BAD_BASELINE` when the store has no such run. */
export async function baselineFromStore(t: Telemetry, tag: string): Promise<Baseline> {
  checkTag(tag, '--baseline-tag');
  const lit = `'${tag}'`;
  const [record] = (await t.query(`SELECT spec_hash, name, toString(started_at) AS started FROM tournaments FINAL WHERE tournament = ${lit}`)).rows;
  const matches = (
    await t.query(
      `SELECT match_id, game, rules_version, pack_id, pack_version, pack_fidelity, pack_hash, engine_version, scenario, seed, seats, seat_specs, bots,
              kind, sides, outcomes, reason, detail, turns, impulses, decisions, final_hash
       FROM matches FINAL WHERE tournament = ${lit} ORDER BY match_id`,
    )
  ).rows;
  if (!record || !matches.length) {
    throw new SalientError(
      'BAD_BASELINE',
      `${t.where} holds no regression run tagged '${tag}'${record ? ' with matches' : ''}. Record one with \`salient regress <suite> --tag ${tag}\` and the same telemetry settings, or pick another tag (tournaments are listed by \`salient tournament list\`).`,
    );
  }
  const impulses = (
    await t.query(
      `SELECT match_id, seq, turn, impulse, phase, step, state_hash, choices, powers, scores
       FROM impulses FINAL WHERE match_id IN (SELECT match_id FROM matches WHERE tournament = ${lit}) ORDER BY match_id, seq`,
    )
  ).rows;
  const events = (
    await t.query(
      `SELECT match_id, impulse_seq, power, text FROM events FINAL WHERE match_id IN (SELECT match_id FROM matches WHERE tournament = ${lit}) ORDER BY match_id, seq`,
    )
  ).rows;
  const eventsOf = new Map<string, string[]>();
  for (const e of events) {
    const k = `${e.match_id}\u0000${e.impulse_seq}`;
    let list = eventsOf.get(k);
    if (!list) eventsOf.set(k, (list = []));
    list.push(`${e.power ? `${e.power}: ` : ''}${e.text}`);
  }
  const impulsesOf = new Map<string, ImpulseRecord[]>();
  for (const i of impulses) {
    const id = String(i.match_id);
    let list = impulsesOf.get(id);
    if (!list) impulsesOf.set(id, (list = []));
    const powers = strs(i.powers);
    const scores = nums(i.scores);
    list.push({
      at: `${i.turn}.${i.impulse} ${i.phase}/${i.step}`,
      turn: Number(i.turn),
      hash: String(i.state_hash),
      choices: strs(i.choices),
      events: eventsOf.get(`${id}\u0000${i.seq}`) ?? [],
      scores: Object.fromEntries(powers.map((p, k) => [p, scores[k] ?? 0])),
    });
  }
  const games: GameRecord[] = matches.map((m: Row) => {
    const seatIds = strs(m.seats);
    const specs = strs(m.seat_specs);
    const bots = strs(m.bots);
    const seats = Object.fromEntries(seatIds.map((s, k) => [s, specs[k] ?? '']));
    const sides = strs(m.sides);
    const outcomes = strs(m.outcomes);
    const kind = String(m.kind);
    return {
      key: gameKey(String(m.scenario), Number(m.seed), seats),
      scenario: String(m.scenario),
      seed: Number(m.seed),
      seats,
      bots: Object.fromEntries(seatIds.map((s, k) => [s, bots[k] ?? ''])),
      kind,
      sides: Object.fromEntries(sides.map((s, k) => [s, outcomes[k] ?? ''])),
      reason: kind === 'error' ? String(m.detail) : String(m.reason) || kind,
      turns: Number(m.turns),
      impulses: Number(m.impulses),
      decisions: Number(m.decisions),
      finalHash: String(m.final_hash),
      impulseLog: impulsesOf.get(String(m.match_id)) ?? [],
    };
  });
  const first = matches[0] as Row;
  return {
    format: BASELINE_FORMAT,
    version: BASELINE_VERSION,
    createdAt: String(record.started),
    suite: { id: String(record.name).replace(/^regression suite /, ''), specHash: String(record.spec_hash) },
    facts: {
      game: String(first.game),
      rulesVersion: String(first.rules_version),
      pack: { id: String(first.pack_id), version: String(first.pack_version), fidelity: String(first.pack_fidelity), hash: String(first.pack_hash) },
      engineVersion: String(first.engine_version),
      bots: [...new Set(matches.flatMap((m: Row) => strs(m.bots)))].sort(),
    },
    games,
  };
}
