/**
 * What every telemetry store must do, embedded or server: the same tests, run by each store's test
 * file against a real engine.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { InMemorySink, type BotFactory, type TelemetrySink } from '@salient/runner';
import { createBot } from '@salient/bots';
import { runReplay } from '@salient/engine';
import { blitz } from '@salient/game-blitz';
import { adHocQueryUnscanned } from '../../src/ad-hoc-query.ts';
import { impulseCurves, matchReplay, migrate, MIGRATIONS, openStore, openTelemetry, SCHEMA_VERSION, type ImpulseCurveRow, type Telemetry, type TelemetryConfig } from '../../src/index.ts';
import { decisionRecord, impulseRecord, matchRecord } from '../../src/records.ts';
import { blitzPack, expectedCounts, playBlitz, rowsOf, storedCounts, tee, type Played } from './matches.ts';
import { expectedCombatResults, expectedCurves, expectedLengths, expectedWinRates } from './expected-queries.ts';

/** A Blitz! combat round's fields other than the ones its columns hold and those named in the test. */
function rest(round: Record<string, unknown>): Record<string, unknown> {
  const { round: _r, target: _t, attackers: _a, defenders: _d, attFactors: _af, defFactors: _df, attDie: _ad, defDie: _dd, attResult: _ar, defResult: _dr, ...others } = round;
  return others;
}

/** Tables and views of the database, with their engines. */
async function catalog(t: Telemetry): Promise<unknown[]> {
  return rowsOf(t, `SELECT name, engine FROM system.tables WHERE database = '${t.database}' ORDER BY name`);
}

async function migrationRows(t: Telemetry): Promise<unknown[]> {
  return rowsOf(t, `SELECT version, name, toUnixTimestamp(applied_at) AS at FROM ${t.database}.salient_migrations ORDER BY version`);
}

/** Win counts for Blitz! as the view reports them, keyed for comparison. */
async function winCounts(t: Telemetry): Promise<Record<string, string>> {
  const rows = await rowsOf(
    t,
    `SELECT side, bot, pack_hash, rules_version, games, wins, losses, draws FROM ${t.database}.win_counts WHERE game = 'blitz' AND scenario = 'A'`,
  );
  return Object.fromEntries(
    rows.map((r) => [`${r.side}/${r.bot}/${r.pack_hash}/${r.rules_version}`, `${Number(r.games)} ${Number(r.wins)} ${Number(r.losses)} ${Number(r.draws)}`]),
  );
}

/** The same counts straight from the match rows (one copy each), to check the view against. */
async function winCountsFromMatches(t: Telemetry): Promise<Record<string, string>> {
  const rows = await rowsOf(
    t,
    `SELECT side, bot, pack_hash, rules_version, count() AS games, countIf(outcome = 'win') AS wins, countIf(outcome = 'loss') AS losses, countIf(outcome = 'draw') AS draws
     FROM ${t.database}.matches FINAL ARRAY JOIN sides AS side, outcomes AS outcome, side_bots AS bot
     WHERE game = 'blitz' AND scenario = 'A' GROUP BY side, bot, pack_hash, rules_version`,
  );
  return Object.fromEntries(
    rows.map((r) => [`${r.side}/${r.bot}/${r.pack_hash}/${r.rules_version}`, `${Number(r.games)} ${Number(r.wins)} ${Number(r.losses)} ${Number(r.draws)}`]),
  );
}

/**
 * Register the contract tests. `open` gives a fresh handle on the store under test (called once per
 * test); the tests close what they open.
 */
export function storeContract(config: () => TelemetryConfig): void {
  it('migrates once: a second open changes no table and records no migration', async () => {
    const first = await openTelemetry(config());
    const tables = await catalog(first);
    const recorded = await migrationRows(first);
    expect(tables.map((r) => (r as { name: string }).name)).toEqual(
      expect.arrayContaining(['matches', 'impulses', 'events', 'decisions', 'salient_migrations', 'tournaments', 'win_counts', 'win_totals']),
    );
    expect(recorded).toHaveLength(SCHEMA_VERSION);
    const second = await openTelemetry(config());
    expect(second.migrations).toEqual({ applied: [], version: SCHEMA_VERSION });
    expect(await catalog(second)).toEqual(tables);
    expect(await migrationRows(second)).toEqual(recorded);
    await second.close();
    await second.close();
    await first.close();
  });

  it('refuses a database migrated by a newer Salient', async () => {
    const t = await openTelemetry(config());
    const store = await openStore(config());
    try {
      // Code that knows no migrations meets a database at the current version: the same as a database ahead of the code.
      await expect(migrate(store, [])).rejects.toMatchObject({ code: 'TELEMETRY_SCHEMA', message: expect.stringMatching(new RegExp(`schema version ${SCHEMA_VERSION}.*up to 0`)) });
      await expect(migrate(store, MIGRATIONS.slice(0, 1))).rejects.toMatchObject({ message: expect.stringMatching(new RegExp(`schema version ${SCHEMA_VERSION}.*up to 1`)) });
    } finally {
      await store.close();
      await t.close();
    }
  });

  it('upgrades a database at schema version 1: the replay log columns are added once, and old match rows keep their replays', async () => {
    const store = await openStore(config());
    const db = 'salient_upgrade';
    const up = { ...store, database: db };
    const columns = async () =>
      (await rowsOf({ client: store.client }, `SELECT name FROM system.columns WHERE database = '${db}' AND table = 'matches' AND name LIKE 'replay%' ORDER BY name`)).map(
        (r) => r.name,
      );
    try {
      await store.client.command({ query: `DROP DATABASE IF EXISTS ${db}` });
      await store.client.command({ query: `CREATE DATABASE ${db}` });
      expect(await migrate(up, MIGRATIONS.slice(0, 1))).toEqual({ applied: [1], version: 1 });
      expect(await columns()).toEqual(['replay']);
      // A match row as schema version 1 wrote it: the replay whole, as JSON.
      const old = await playBlitz(121, new InMemorySink());
      const later = ['strikes', 'bank_ms'];
      const v1 = Object.fromEntries(Object.entries(matchRecord(old.rows.matches[0]!)).filter(([k]) => !k.startsWith('replay_') && !k.startsWith('curve_') && !later.includes(k)));
      await store.client.insert({ table: `${db}.impulses`, values: old.rows.impulses.map((r) => impulseRecord(r)), format: 'JSONEachRow' });
      await store.client.insert({ table: `${db}.matches`, values: [{ ...v1, replay: JSON.stringify(old.result.replay) }], format: 'JSONEachRow' });
      // An upgrade cut off after adding one column, before it was recorded: the next run goes on from there.
      await store.client.command({ query: `ALTER TABLE ${db}.matches ADD COLUMN replay_by Array(String)` });
      expect(await migrate(up, MIGRATIONS.slice(0, 2))).toEqual({ applied: [2], version: 2 });
      expect(await migrate(up, MIGRATIONS.slice(0, 2))).toEqual({ applied: [], version: 2 });
      // and on to the current version (3: the tournaments table; 4: curves filed by scenario, the
      // old match's taken from its impulse rows; 5: timeout strikes; 6: the dashboard aggregates, the
      // old match's curve taken from curve_points)
      expect(await migrate(up)).toEqual({ applied: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12], version: 12 });
      expect(await migrate(up)).toEqual({ applied: [], version: 12 });
      const rounded = (rows: ImpulseCurveRow[]) =>
        rows.map(({ meanScore, meanLosses, meanControl, ...rest }) => ({ ...rest, means: [meanScore, meanLosses, meanControl].map((x) => x.toFixed(9)) }));
      expect(rounded(await impulseCurves(up))).toEqual(rounded(expectedCurves([old])));
      expect(await columns()).toEqual(['replay', 'replay_by', 'replay_choices']);
      expect(await matchReplay(up, old.result.matchId)).toEqual(old.result.replay);
      // and a match written now stores its log in the new columns
      const fresh = await playBlitz(122, new InMemorySink());
      await store.client.insert({ table: `${db}.matches`, values: [matchRecord(fresh.rows.matches[0]!)], format: 'JSONEachRow' });
      const [row] = await rowsOf({ client: store.client }, `SELECT replay, length(replay_by) AS n FROM ${db}.matches WHERE match_id = '${fresh.result.matchId}'`);
      expect([row!.replay, Number(row!.n)]).toEqual(['', fresh.result.replay.log.length]);
      expect(await matchReplay(up, fresh.result.matchId)).toEqual(fresh.result.replay);
      expect(await matchReplay(up, 'no-such-match')).toBeUndefined();
    } finally {
      await store.client.command({ query: `DROP DATABASE IF EXISTS ${db}` });
      await store.close();
    }
  });

  it('upgrades a database at schema version 4: strike columns added once; rows from before read no strikes, rows since keep theirs', async () => {
    const store = await openStore(config());
    const db = 'salient_upgrade_strikes';
    const up = { ...store, database: db };
    const columns = async () =>
      (await rowsOf({ client: store.client }, `SELECT table, name, type FROM system.columns WHERE database = '${db}' AND name IN ('strike', 'strikes', 'bank_ms') ORDER BY table, name`)).map(
        (r) => `${r.table}.${r.name} ${r.type}`,
      );
    try {
      await store.client.command({ query: `DROP DATABASE IF EXISTS ${db}` });
      await store.client.command({ query: `CREATE DATABASE ${db}` });
      expect(await migrate(up, MIGRATIONS.slice(0, 4))).toEqual({ applied: [1, 2, 3, 4], version: 4 });
      expect(await columns()).toEqual([]);
      // A decision row and a match row as schema version 4 wrote them.
      const old = await playBlitz(131, new InMemorySink());
      const { strike: _s, ...v4Decision } = decisionRecord(old.rows.decisions[0]!);
      const { strikes: _k, bank_ms: _b, ...v4Match } = matchRecord(old.rows.matches[0]!);
      await store.client.insert({ table: `${db}.decisions`, values: [v4Decision], format: 'JSONEachRow' });
      await store.client.insert({ table: `${db}.matches`, values: [v4Match], format: 'JSONEachRow' });
      expect(await migrate(up)).toEqual({ applied: [5, 6, 7, 8, 9, 10, 11, 12], version: 12 });
      expect(await migrate(up)).toEqual({ applied: [], version: 12 });
      expect(await columns()).toEqual(['decisions.strike UInt32', 'matches.bank_ms Array(Float64)', 'matches.strikes Array(UInt32)']);
      const id = old.result.matchId;
      const read = async () => ({
        decisions: (await rowsOf({ client: store.client }, `SELECT seq, strike FROM ${db}.decisions FINAL WHERE match_id = '${id}' ORDER BY seq`)).map((r) => [Number(r.seq), Number(r.strike)]),
        match: (await rowsOf({ client: store.client }, `SELECT strikes, bank_ms FROM ${db}.matches FINAL WHERE match_id = '${id}'`)).map((r) => [r.strikes, r.bank_ms]),
      });
      expect(await read()).toEqual({ decisions: [[0, 0]], match: [[[], []]] });
      // Written again now, with a strike: the same keys, so the new rows replace the old ones.
      const struck = { ...old.rows.decisions[0]!, strike: 2, rationale: 'timeout strike 2 of 3: ...' };
      const result = { ...old.result, strikesBySeat: { Axis: 2, Allies: 0 }, bankMsBySeat: { Axis: 0, Allies: 1500 } };
      await store.client.insert({ table: `${db}.decisions`, values: [decisionRecord(struck)], format: 'JSONEachRow' });
      await store.client.insert({ table: `${db}.matches`, values: [matchRecord({ ...old.rows.matches[0]!, result })], format: 'JSONEachRow' });
      expect(await read()).toEqual({ decisions: [[0, 2]], match: [[[0, 2], [1500, 0]]] });
    } finally {
      await store.client.command({ query: `DROP DATABASE IF EXISTS ${db}` });
      await store.close();
    }
  });

  it('a match with timeout strikes: each strike stored whatever the sample, and the strikes and bank left of each seat', async () => {
    const t = await openTelemetry(config());
    try {
      // A bot on a clock of its own that takes 400 ms (of it) on its 2nd and 5th decisions.
      let clock = 0;
      let n = 0;
      const slow: BotFactory = () => ({
        name: 'slow',
        version: '1',
        decide: (req) => {
          clock += ++n === 2 || n === 5 ? 400 : 10;
          return req.options.length - 1;
        },
      });
      const sink = t.sink({ decisionSample: 0, lingerMs: 0 });
      const played = await playBlitz(132, sink, { seats: { Axis: slow, Allies: createBot('random') }, now: () => clock, decisionTimeoutMs: 100, timeBankMs: 50, strikes: 3 });
      await sink.drain();
      const id = played.result.matchId;
      expect(played.result.kind).not.toBe('forfeit');
      const decisions = await rowsOf(t, `SELECT seq, seat, strike, rationale FROM ${t.database}.decisions FINAL WHERE match_id = '${id}' ORDER BY seq`);
      expect(decisions.map((d) => [d.seat, Number(d.strike), String(d.rationale).slice(0, 21)])).toEqual([
        ['Axis', 1, 'timeout strike 1 of 3'],
        ['Axis', 2, 'timeout strike 2 of 3'],
      ]);
      const [m] = await rowsOf(t, `SELECT seats, strikes, bank_ms FROM ${t.database}.matches FINAL WHERE match_id = '${id}'`);
      expect(m).toEqual({ seats: ['Allies', 'Axis'], strikes: [0, 2], bank_ms: [50, 0] });
    } finally {
      await t.close();
    }
  });

  it('writes every row of real matches exactly once, rows during play and the match row last', async () => {
    const t = await openTelemetry(config());
    try {
      // A Blitz! A match has about 150 rows, so 50 makes the sink insert during play; lingerMs 0 makes
      // every flush write what is due before it resolves, so each one can be checked.
      const sink = t.sink({ batchRows: 50, decisionSample: 0.5, lingerMs: 0 });
      for (const seed of [101, 102]) {
        // After each of the runner's flushes, look at what the store holds for this match.
        const seen: { impulses: number; matches: number }[] = [];
        let matchId = '';
        const probe: TelemetrySink = {
          impulse: (r) => ((matchId = r.matchId), sink.impulse(r)),
          event: (r) => sink.event(r),
          decision: (r) => sink.decision(r),
          match: (r) => sink.match(r),
          flush: async () => {
            await sink.flush();
            const c = await storedCounts(t, matchId);
            seen.push({ impulses: c.impulses, matches: c.matches });
          },
        };
        const played = await playBlitz(seed, probe);
        expect(played.result.kind).toBe('completed');
        expect(await storedCounts(t, played.result.matchId)).toEqual(expectedCounts(played, 0.5));
        // rows landed before the match ended, and the match row only with the last flush
        expect(seen.slice(0, -1).some((s) => s.impulses > 0)).toBe(true);
        expect(seen.slice(0, -1).every((s) => s.matches === 0)).toBe(true);
        expect(seen.at(-1)).toEqual({ impulses: played.result.impulses, matches: 1 });
      }
      expect(sink.buffered).toBe(0);
      expect(sink.spooled).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('stores what the runner reported: match provenance and result, impulse summaries, flattened combats', async () => {
    const t = await openTelemetry(config());
    try {
      const sink = t.sink({ decisionSample: 1 });
      const played = await playBlitz(104, sink, { tags: { tournament: 'contract', worker: 'w1' } });
      // written in the background: wait for it
      await sink.drain();
      const r = played.result;
      if (r.kind !== 'completed') throw new Error(`expected a completed match, got ${r.kind}`);
      const id = r.matchId;
      const [m] = await rowsOf(
        t,
        `SELECT tournament, worker, game, scenario, pack_hash, seed, seats, bots, seat_specs, kind, sides, outcomes, side_bots, powers, scores,
                turns, impulses, decisions, chance_draws, final_hash, replay FROM ${t.database}.matches FINAL WHERE match_id = '${id}'`,
      );
      expect(m).toMatchObject({
        tournament: 'contract',
        worker: 'w1',
        game: 'blitz',
        scenario: 'A',
        pack_hash: r.pack.hash,
        seats: ['Allies', 'Axis'],
        bots: ['random@1', 'random@1'],
        seat_specs: ['random', 'random'],
        kind: 'completed',
        sides: ['Allies', 'Axis'],
        outcomes: [r.result.sides.Allies, r.result.sides.Axis],
        side_bots: ['random@1', 'random@1'],
        powers: Object.keys(r.result.scores).sort(),
        scores: Object.keys(r.result.scores).sort().map((p) => r.result.scores[p]),
        final_hash: r.finalHash,
      });
      expect(Number(m!.seed)).toBe(104);
      expect([Number(m!.turns), Number(m!.impulses), Number(m!.decisions), Number(m!.chance_draws)]).toEqual([
        r.position.turn,
        r.impulses,
        r.decisions,
        r.chanceDraws,
      ]);
      // the replay is the row's columns and its log arrays, and it re-runs to the match's final state
      expect(m!.replay).toBe('');
      const replay = await t.replay(id);
      expect(replay).toEqual(r.replay);
      expect(runReplay(blitz, blitzPack, replay!).hash).toBe(r.finalHash);

      const imps = await rowsOf(t, `SELECT seq, state_hash, powers, scores, losses, choices FROM ${t.database}.impulses FINAL WHERE match_id = '${id}' ORDER BY seq`);
      expect(imps.map((i) => Number(i.seq))).toEqual(played.rows.impulses.map((i) => i.seq));
      expect(imps.map((i) => i.state_hash)).toEqual(played.rows.impulses.map((i) => i.stateHash));
      expect(imps.flatMap((i) => i.choices as string[])).toEqual(played.rows.impulses.flatMap((i) => i.choices));
      const last = played.rows.impulses.at(-1)!;
      const lastRow = imps.at(-1)!;
      const powers = lastRow.powers as string[];
      expect(powers.map((p, i) => [p, (lastRow.scores as number[])[i]])).toEqual(powers.map((p) => [p, last.summary?.scores[p] ?? 0]));
      const lossEvents = played.events.filter((e) => e.type === 'loss');
      const storedLosses = imps.reduce((a, i) => a + (i.losses as (number | string)[]).reduce<number>((x, y) => x + Number(y), 0), 0);
      expect(storedLosses).toBe(lossEvents.length);

      const combats = played.events.filter((e) => e.type === 'combat');
      const stored = await rowsOf(
        t,
        `SELECT combat_target, combat_outcome, combat_rounds, att_factors, def_factors, att_dice, def_dice, att_results, def_results, payload
         FROM ${t.database}.events FINAL WHERE match_id = '${id}' AND type = 'combat' ORDER BY seq`,
      );
      expect(stored).toHaveLength(combats.length);
      stored.forEach((row, i) => {
        const data = combats[i]!.data as { target: string; outcome: string; rounds: Record<string, unknown>[] };
        expect(row.combat_target).toBe(data.target);
        expect(row.combat_outcome).toBe(data.outcome);
        expect(row.combat_rounds).toEqual(data.rounds.map((x) => x.round));
        expect((row.att_factors as number[]).map(Number)).toEqual(data.rounds.map((x) => x.attFactors));
        expect((row.def_dice as number[]).map(Number)).toEqual(data.rounds.map((x) => x.defDie));
        expect(row.def_results).toEqual(data.rounds.map((x) => x.defResult));
        // the payload holds what the columns do not, and no round twice
        expect(JSON.parse(row.payload as string)).toEqual({ rounds: data.rounds.map((x) => ({ target: x.target, attackers: x.attackers, defenders: x.defenders, ...rest(x) })) });
      });
      // every event row gives back the event the game reported, data and all
      const kept = played.events.filter((e) => (blitz.telemetryEvents as readonly string[]).includes(e.type));
      const events = await t.events(id);
      expect(events.map((e) => ({ type: e.type, power: e.power, text: e.text, data: e.data }))).toEqual(
        kept.map((e) => ({ type: e.type, power: e.power ?? '', text: e.text, data: e.data })),
      );
      expect(events.map((e) => e.seq)).toEqual(played.rows.events.map((e) => e.seq));

      const decisions = await rowsOf(t, `SELECT count() AS n, uniqExact(seq) AS u FROM ${t.database}.decisions FINAL WHERE match_id = '${id}'`);
      expect(Number(decisions[0]!.n)).toBe(r.decisions);
    } finally {
      await t.close();
    }
  });

  it('with lingerMs, writes finished matches together: on time, on drain, or on close', async () => {
    const t = await openTelemetry(config());
    const sink = t.sink({ lingerMs: 60_000, decisionSample: 0 });
    const first = await playBlitz(111, sink);
    const second = await playBlitz(112, sink);
    // the runner's flushes have resolved, but the matches wait
    expect(sink.buffered).toBe(2);
    expect((await storedCounts(t, first.result.matchId)).matches).toBe(0);
    await sink.drain();
    expect(sink.buffered).toBe(0);
    for (const p of [first, second]) expect(await storedCounts(t, p.result.matchId)).toEqual(expectedCounts(p, 0));

    const quick = t.sink({ lingerMs: 50, decisionSample: 0 });
    const third = await playBlitz(113, quick);
    // nobody flushes again: the timer writes it. The match row can be readable a moment before the
    // background write has settled (it is the write's last insert), so wait for both (up to 30 s: a
    // loaded 2-core machine has taken over 5 s for a first write).
    const deadline = Date.now() + 30_000;
    while (((await storedCounts(t, third.result.matchId)).matches === 0 || quick.buffered > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(await storedCounts(t, third.result.matchId)).toEqual(expectedCounts(third, 0));
    expect(quick.buffered).toBe(0);

    const fourth = await playBlitz(114, t.sink({ lingerMs: 60_000, decisionSample: 0 }));
    await t.close();
    const look = await openTelemetry(config());
    try {
      expect(await storedCounts(look, fourth.result.matchId)).toEqual(expectedCounts(fourth, 0));
    } finally {
      await look.close();
    }
  });

  it('by default writes in the background, and close waits for the batches being written', async () => {
    const t = await openTelemetry(config());
    // Small batches, so a write starts at almost every match's end and is still running when the
    // next match is played and when close is called.
    const sink = t.sink({ batchRows: 40, decisionSample: 0.5 });
    const played: Played[] = [];
    let flushes = 0;
    let inFlightAfterFlush = 0;
    const probe: TelemetrySink = {
      impulse: (r) => sink.impulse(r),
      event: (r) => sink.event(r),
      decision: (r) => sink.decision(r),
      match: (r) => sink.match(r),
      flush: async () => {
        await sink.flush();
        flushes++;
        if (sink.backlogRows > 0) inFlightAfterFlush++;
      },
    };
    for (let seed = 120; seed < 126; seed++) played.push(await playBlitz(seed, probe));
    // the runner's flushes returned while rows were still on their way: nothing waited for every write
    expect(inFlightAfterFlush).toBeGreaterThan(0);
    expect(flushes).toBeGreaterThan(played.length);
    await t.close();
    const look = await openTelemetry(config());
    try {
      for (const p of played) expect(await storedCounts(look, p.result.matchId)).toEqual(expectedCounts(p, 0.5));
    } finally {
      await look.close();
    }
  });

  it('bounds the backlog: a flush waits when a full batch is queued behind the one being written', async () => {
    const t = await openTelemetry(config());
    // A slow store: every insert takes 150 ms more, far longer than a game.
    const insert = t.client.insert.bind(t.client);
    t.client.insert = (async (params: Parameters<typeof insert>[0]) => {
      await new Promise((r) => setTimeout(r, 150));
      return insert(params);
    }) as typeof t.client.insert;
    const batchRows = 100;
    const sink = t.sink({ batchRows, decisionSample: 0, lingerMs: 60_000 });
    let most = 0;
    let waited = 0;
    const probe: TelemetrySink = {
      impulse: (r) => sink.impulse(r),
      event: (r) => sink.event(r),
      decision: (r) => sink.decision(r),
      match: (r) => sink.match(r),
      flush: async () => {
        const t0 = performance.now();
        await sink.flush();
        if (performance.now() - t0 > 100) waited++;
        most = Math.max(most, sink.backlogRows);
      },
    };
    try {
      const played: Played[] = [];
      for (let seed = 130; seed < 140; seed++) played.push(await playBlitz(seed, probe));
      const rows = played.map((p) => p.result.impulses + p.events.length + 1);
      // without backpressure the ten matches (~700 rows) would all be held; with it, at most the batch
      // being written and one full batch behind it (each at most one flush's rows over batchRows)
      expect(rows.reduce((a, b) => a + b, 0)).toBeGreaterThan(4 * batchRows);
      expect(most).toBeLessThanOrEqual(2 * (batchRows + Math.max(...rows)));
      expect(waited).toBeGreaterThan(0);
      await sink.drain();
      expect(sink.backlogRows).toBe(0);
      for (const p of played) expect(await storedCounts(t, p.result.matchId)).toEqual(expectedCounts(p, 0));
    } finally {
      await t.close();
    }
  });

  it('keeps one copy of a re-run match and of a re-sent batch, and win counts do not move', async () => {
    const t = await openTelemetry(config());
    try {
      const first = t.sink({ decisionSample: 0.3 });
      const played = await playBlitz(105, first);
      await first.drain();
      const id = played.result.matchId;
      const once = await storedCounts(t, id);
      expect(once).toEqual(expectedCounts(played, 0.3));
      const wins = await winCounts(t);
      expect(wins).toEqual(await winCountsFromMatches(t));

      // the same match again: same id, same rows
      const rerun = t.sink({ decisionSample: 0.3 });
      const again = await playBlitz(105, rerun);
      await rerun.drain();
      expect(again.result.matchId).toBe(id);
      expect(await storedCounts(t, id)).toEqual(once);

      // a batch sent twice, as after a retry whose first attempt had in fact landed; all rows at once
      for (let i = 0; i < 2; i++) {
        const resend = t.sink({ decisionSample: 0.3, batchRows: 1 });
        const copy = new InMemorySink();
        const s = tee(resend, copy);
        for (const row of played.rows.impulses) s.impulse(row);
        for (const row of played.rows.events) s.event(row);
        for (const row of played.rows.decisions) s.decision?.(row);
        await s.flush?.();
        s.match(played.rows.matches[0]!);
        await s.flush?.();
        await resend.drain();
      }
      expect(await storedCounts(t, id)).toEqual(once);
      expect(await winCounts(t)).toEqual(wins);
      const [raw] = await rowsOf(t, `SELECT count() AS n FROM ${t.database}.matches WHERE match_id = '${id}'`);
      // the copies were really inserted (unless already merged away): FINAL is what hides them
      expect(Number(raw!.n)).toBeGreaterThanOrEqual(1);
    } finally {
      await t.close();
    }
  });

  it('answers win rates, game lengths, impulse curves and combat results as the played matches say', async () => {
    const t = await openTelemetry(config());
    try {
      // quotes, backslashes and newlines in a tag must round-trip through the filter's literals
      const tournament = `queries 'q' \\ \n ${Date.now()}`;
      const sink = t.sink({ lingerMs: 60_000, decisionSample: 0 });
      const played: Played[] = [];
      for (let seed = 500; seed < 512; seed++) played.push(await playBlitz(seed, sink, { tags: { tournament } }));
      await sink.drain();
      const filter = { tournament, game: 'blitz', scenario: 'A', bot: 'random', pack: 'approximation' };

      expect(await t.winRates(filter)).toEqual(expectedWinRates(played));
      expect(await t.winRates({ ...filter, bot: 'greedy' })).toEqual([]);
      expect(await t.gameLengths(filter)).toEqual(expectedLengths(played));
      const rounded = (rows: ImpulseCurveRow[]) =>
        rows.map(({ meanScore, meanLosses, meanControl, ...rest }) => ({ ...rest, means: [meanScore, meanLosses, meanControl].map((x) => x.toFixed(9)) }));
      expect(rounded(await t.impulseCurves(filter))).toEqual(rounded(expectedCurves(played)));
      expect(await t.combatResults(filter, 5)).toEqual(expectedCombatResults(played, 5));
      // every decided match's sides, in the order they ended (all 12 ended in the same second or in order)
      const results = await t.results(filter);
      const decided = played.filter((p) => 'result' in p.result);
      expect(new Set(results.map((r) => JSON.stringify(r.sides)))).toEqual(
        new Set(decided.map((p) => JSON.stringify(Object.keys((p.result as { result: { sides: Record<string, string> } }).result.sides).sort().map((side) => ({ side, bot: p.result.bots[side], result: (p.result as { result: { sides: Record<string, string> } }).result.sides[side] }))))),
      );
      expect(results).toHaveLength(decided.length);
      expect(results.every((r) => r.game === 'blitz' && r.scenario === 'A')).toBe(true);
      // victory conditions: the decided matches by the game's reason and winner
      const reasons = new Map<string, number>();
      for (const p of decided) {
        const r = (p.result as { result: { sides: Record<string, string>; reason: string } }).result;
        const k = JSON.stringify([r.reason, Object.keys(r.sides).sort().filter((s) => r.sides[s] === 'win')]);
        reasons.set(k, (reasons.get(k) ?? 0) + 1);
      }
      const vc = await t.victoryConditions(filter);
      expect(Object.fromEntries(vc.map((v) => [JSON.stringify([v.reason, v.winners]), v.matches]))).toEqual(Object.fromEntries(reasons));
      // who decides first: the first entry of each replay log that is not a chance draw
      const firsts = new Map<string, number>();
      for (const p of played) {
        const by = p.result.replay.log.find((e) => e.by !== 'chance')?.by as string;
        firsts.set(by, (firsts.get(by) ?? 0) + 1);
      }
      expect(Object.fromEntries((await t.firstMovers(filter)).map((f) => [f.seat, f.matches]))).toEqual(Object.fromEntries(firsts));

      // filter values are literals, whatever they contain
      const odd = { game: "bl'itz\\", scenario: "A' OR 1 = 1 --", bot: '\n%_', pack: '\0', tournament: "'; DROP TABLE matches" };
      expect(await t.winRates(odd)).toEqual([]);
      expect(await t.gameLengths(odd)).toEqual([]);
      expect(await t.impulseCurves(odd)).toEqual([]);
      expect(await t.combatResults(odd)).toEqual([]);
      expect(await t.results(odd)).toEqual([]);
      expect(await t.victoryConditions(odd)).toEqual([]);
      expect(await t.firstMovers(odd)).toEqual([]);

      // the view agrees with the match rows on everything stored so far
      const everything = await t.winRates({ game: 'blitz', scenario: 'A' });
      expect(everything.length).toBeGreaterThan(0);
      expect(Object.fromEntries(everything.map((r) => [`${r.side}/${r.bot}/${r.packHash}/${r.rulesVersion}`, `${r.games} ${r.wins} ${r.losses} ${r.draws}`]))).toEqual(
        await winCountsFromMatches(t),
      );
    } finally {
      await t.close();
    }
  });

  it('keeps two settings of one bot apart (greedy and greedy:chance=0 are two entrants), and a bot filter finds either or both', async () => {
    const t = await openTelemetry(config());
    try {
      const tournament = `entrants-${Date.now()}`;
      const sink = t.sink({ lingerMs: 0, decisionSample: 0 });
      const specs = ['greedy', 'greedy:chance=0'];
      const played: Played[] = [];
      for (let seed = 600; seed < 604; seed++) {
        const [axis, allies] = seed % 2 ? specs : [...specs].reverse();
        played.push(
          await playBlitz(seed, sink, {
            tags: { tournament },
            seats: { Axis: createBot(axis as string), Allies: createBot(allies as string) },
            seatSpecs: { Axis: axis as string, Allies: allies as string },
          }),
        );
      }
      const rates = await t.winRates({ tournament });
      // the parameters as given (sorted, numbers in one spelling), the version as the bot reported it
      expect([...new Set(rates.map((r) => r.bot))].sort()).toEqual(['greedy:chance=0@2', 'greedy@2']);
      for (const bot of ['greedy@2', 'greedy:chance=0@2']) expect(rates.filter((r) => r.bot === bot).reduce((n, r) => n + r.games, 0)).toBe(4);
      const results = await t.results({ tournament });
      expect(results).toHaveLength(played.filter((p) => 'result' in p.result).length);
      for (const r of results) expect(r.sides.map((x) => x.bot).sort()).toEqual(['greedy:chance=0@2', 'greedy@2']);
      // `greedy` selects both entrants' matches; `greedy:chance=0` only that setting's rows; an unknown setting none
      expect((await t.winRates({ tournament, bot: 'greedy' })).length).toBe(rates.length);
      expect((await t.winRates({ tournament, bot: 'greedy:chance=0' })).map((r) => r.bot)).toEqual(['greedy:chance=0@2', 'greedy:chance=0@2']);
      expect(await t.winRates({ tournament, bot: 'greedy:chance=1' })).toEqual([]);
      expect((await t.matches({ tournament, bot: 'greedy:chance=0' })).total).toBe(4);
      const [summary] = await t.tournaments({ tournament });
      expect(summary?.bots).toEqual(['greedy:chance=0@2', 'greedy@2']);
    } finally {
      await t.close();
    }
  });

  it('runs read-only ad hoc SQL and refuses anything else with a clear error', async () => {
    const t = await openTelemetry(config());
    try {
      const r = await t.query(`SELECT count() AS n, 'a;b' AS s FROM matches FINAL WHERE game = 'blitz' -- trailing; comment`);
      expect(r.columns).toEqual([
        { name: 'n', type: 'UInt64' },
        { name: 's', type: 'String' },
      ]);
      expect(r.rows).toHaveLength(1);
      expect(typeof r.rows[0]!.n).toBe('number');
      expect(r.rows[0]!.s).toBe('a;b');
      expect((await t.query('SHOW TABLES;')).rows.map((x) => x.name)).toContain('impulses');
      expect((await t.query('DESCRIBE TABLE events')).rows.map((x) => x.name)).toContain('att_factors');
      expect((await t.query('WITH 2 AS x SELECT x * 3 AS y')).rows).toEqual([{ y: 6 }]);

      for (const [sql, why] of [
        ['DROP TABLE matches', /this one starts with DROP/],
        ['  insert into matches (match_id) values (1)', /this one starts with INSERT/],
        ['SELECT 1; DROP TABLE matches', /Only one statement at a time/],
        ['/* SELECT */ ALTER TABLE matches DELETE WHERE 1', /starts with ALTER/],
        ['', /empty/],
        ['SELECT nope FROM matches', /rejected the query: .*nope/],
      ] as const) {
        await expect(t.query(sql), sql).rejects.toMatchObject({ code: 'BAD_QUERY', message: expect.stringMatching(why) });
      }
      expect((await t.query("SELECT count() AS n FROM system.tables WHERE name = 'matches'")).rows).not.toEqual([{ n: 0 }]);
    } finally {
      await t.close();
    }
  });

  it('ad hoc SQL stays read-only: no file written or read, no network, no settings changed, whatever the disguise', async () => {
    await withEscapes(async ({ escapes, unharmed }) => {
      const t = await openTelemetry(config());
      try {
        for (const sql of escapes) {
          const error = await t.query(sql).then(
            (r) => new Error(`ran, giving ${JSON.stringify(r.rows).slice(0, 300)}`),
            (e: unknown) => e,
          );
          expect(error, sql).toMatchObject({ code: 'BAD_QUERY', message: expect.stringMatching(/refused/i) });
          unharmed(sql, error);
        }
        // Reading the store is what it is for, system tables included.
        expect((await t.query("SELECT value FROM system.settings WHERE name = 'readonly'")).rows).toEqual([{ value: '1' }]);
        expect((await t.query('SELECT count() AS n FROM system.columns WHERE table = \'matches\'')).rows[0]!.n).toBeGreaterThan(10);
        if (t.mode === 'embedded') {
          expect((await t.query('EXPLAIN SELECT count() FROM matches')).rows.length).toBeGreaterThan(0);
          expect((await t.query('SELECT sum(number) AS s FROM numbers(4)')).rows).toEqual([{ s: 6 }]);
          expect((await t.query("SELECT format('{}-{}', 'a', 'b') AS f")).rows).toEqual([{ f: 'a-b' }]);
        }
        // The sink's session is untouched by all this: it still writes.
        await playBlitz(777, t.sink({ lingerMs: 0 }));
        expect((await t.query('SELECT count() AS n FROM matches FINAL WHERE seed = 777')).rows).toEqual([{ n: 1 }]);
      } finally {
        await t.close();
      }
    });
  });

  it("ClickHouse's own layers hold without the scan in front of them: the engine's parser and its read-only mode", async () => {
    await withEscapes(async ({ escapes, unharmed }) => {
      // Tables in place (migrations), then the bare store.
      await (await openTelemetry(config())).close();
      const store = await openStore(config());
      try {
        for (const sql of escapes) {
          const error = await adHocQueryUnscanned(store, sql).then(
            (r) => new Error(`ran, giving ${JSON.stringify(r.rows).slice(0, 300)}`),
            (e: unknown) => e,
          );
          expect(error, sql).toMatchObject({ code: 'BAD_QUERY' });
          unharmed(sql, error);
        }
      } finally {
        await store.close();
      }
    });
  });
}

interface Escapes {
  /** Queries that try to leave read-only mode. */
  escapes: string[];
  /** Checks after each: nothing written, nothing connected to, the secret file not shown. */
  unharmed(sql: string, error: unknown): void;
}

/**
 * Queries that try every way out of read-only ad hoc SQL, with a file to write, one to keep, a secret
 * one to read and a TCP server to reach.
 */
async function withEscapes(f: (e: Escapes) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'salient-escape-'));
  // Any TCP connection counts (url, s3, remote, mysql, postgresql...); HTTP clients get an answer.
  let connections = 0;
  const net = createServer((socket) => {
    connections++;
    socket.on('error', () => {});
    socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 7\r\nConnection: close\r\n\r\nleaked\n');
  });
  await new Promise<void>((resolve) => net.listen(0, '127.0.0.1', resolve));
  const port = (net.address() as AddressInfo).port;
  const web = `http://127.0.0.1:${port}`;
  const fresh = join(dir, 'fresh.txt');
  const kept = join(dir, 'kept.txt');
  writeFileSync(kept, 'kept as it was\n');
  const secret = join(dir, 'secret.csv');
  writeFileSync(secret, 'top_secret_column\ntop-secret-value\n');
  try {
    const escapes = [
      // writing a file
      `SELECT 1 INTO OUTFILE '${fresh}'`,
      `select 1 /* a */ into /* b */ OutFile '${fresh}'`,
      `SELECT match_id FROM matches\n-- why not\nINTO\n\tOUTFILE '${kept}' APPEND`,
      `WITH 1 AS x SELECT x INTO OUTFILE '${kept}' APPEND`,
      `SHOW TABLES INTO OUTFILE '${fresh}'`,
      `DESCRIBE TABLE matches INTO OUTFILE '${fresh}'`,
      `EXPLAIN SELECT 1 INTO OUTFILE '${fresh}'`,
      `SELECT 1 # a comment to ClickHouse, a quote to a naive scanner: '\n; SELECT 1 INTO OUTFILE '${fresh}' -- '`,
      // reading a file
      `SELECT * FROM file('${secret}', 'TSV', 'line String')`,
      `SELECT file('${secret}')`,
      `SELECT 1 IN file('${secret}', 'TSV', 'line String')`,
      `DESCRIBE TABLE file('${secret}', 'CSVWithNames')`,
      `SELECT * FROM (SELECT * FROM file('${secret}', 'TSV', 'line String') SETTINGS readonly = 0)`,
      // the network
      `SELECT * FROM url('${web}/a', 'TSV', 'line String')`,
      `SELECT * FROM URL('${web}/b', 'TSV', 'line String')`,
      `SELECT * FROM \`url\`('${web}/b2', 'TSV', 'line String')`,
      `SELECT 1 IN url('${web}/c', 'TSV', 'line String')`,
      `SELECT count() FROM matches WHERE match_id IN (SELECT * FROM url('${web}/d', 'TSV', 'line String'))`,
      `SELECT * FROM system.one AS o JOIN url('${web}/e', 'TSV', 'line String') AS u ON 1 = 1`,
      `SELECT * FROM (SELECT * FROM url('${web}/f', 'TSV', 'line String') SETTINGS readonly = 0)`,
      `WITH u AS (SELECT * FROM url('${web}/g', 'TSV', 'line String') SETTINGS readonly = 2) SELECT * FROM u`,
      `SELECT * FROM s3('${web}/bucket/key.tsv', 'TSV', 'line String')`,
      `SELECT * FROM remote('127.0.0.1:${port}', system.one)`,
      `SELECT * FROM mysql('127.0.0.1:${port}', 'db', 'tbl', 'user', 'password')`,
      `SELECT * FROM postgresql('127.0.0.1:${port}', 'db', 'tbl', 'user', 'password')`,
      `SELECT * FROM hdfs('hdfs://127.0.0.1:${port}/x.tsv', 'TSV', 'line String')`,
      // other table functions that reach outside the store
      `SELECT * FROM executable('cat', 'TSV', 'line String')`,
      `SELECT * FROM input('line String')`,
      `SELECT * FROM view(SELECT * FROM url('${web}/h', 'TSV', 'line String'))`,
      // settings
      'SET readonly = 0',
      `SELECT 1 SETTINGS readonly = 0`,
      `SELECT getSetting('readonly') AS r SETTINGS readonly = 0`,
      `SELECT * FROM (SELECT getSetting('readonly') AS r SETTINGS readonly = 0)`,
      // several statements
      `SELECT 1; SELECT * FROM url('${web}/i', 'TSV', 'line String')`,
      `SELECT 1; INSERT INTO matches (match_id) VALUES ('x')`,
    ];
    await f({
      escapes,
      unharmed: (sql, error) => {
        expect((error as Error).message, sql).not.toMatch(/top.secret/);
        expect(existsSync(fresh), sql).toBe(false);
        expect(readFileSync(kept, 'utf8'), sql).toBe('kept as it was\n');
        expect(connections, sql).toBe(0);
      },
    });
  } finally {
    await new Promise((resolve) => net.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

