/**
 * The API's request and response shapes (zod): validated on the way in, serialized on the way out, and
 * published as OpenAPI at /docs.
 */
import { z } from 'zod';

/** A name in a filter: a game, scenario, pack, rules version, bot or tournament id. */
const name = (what: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\w.@:=,+\- ]+$/, `a ${what} is letters, digits, spaces and . @ : = , + - _ only`)
    .describe(what);

const time = (what: string) =>
  z.iso
    .datetime({ offset: true })
    .transform((s) => new Date(s))
    .describe(`${what} (ISO 8601, e.g. 2026-11-01T00:00:00Z)`);

/** What every read endpoint can be narrowed by. */
export const filterQuery = z.object({
  game: name('game id').optional(),
  scenario: name('scenario id').optional(),
  pack: name('pack id or content hash').optional(),
  rulesVersion: name('rules version').optional(),
  bot: name('bot, as recorded (random@1) or by name (random)').optional(),
  tournament: name('tournament id').optional(),
  from: time('matches that ended at or after this time').optional(),
  to: time('matches that ended before this time').optional(),
});
export type FilterQuery = z.infer<typeof filterQuery>;

export const pageQuery = filterQuery.extend({
  limit: z.coerce.number().int().min(1).max(500).default(50).describe('matches per page (1–500)'),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0).describe('matches to skip (after `after`, if given)'),
  after: z
    .string()
    .min(1)
    .max(400)
    .regex(/^[A-Za-z0-9_-]+$/, 'a page cursor is the `next` value of an earlier page, unchanged')
    .optional()
    .describe('cursor: start after the last match of the page whose `next` this is (deep pages without skipping every row before them)'),
});

export const matchIdParams = z.object({ id: name('match id') });
export const tournamentIdParams = z.object({ id: name('tournament id') });

const scenarioKey = {
  game: z.string(),
  scenario: z.string(),
  packId: z.string(),
  packHash: z.string(),
  rulesVersion: z.string(),
};

const interval = z.object({ low: z.number(), high: z.number() }).describe('95% Wilson interval of the win rate');

const record = {
  games: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  draws: z.number().int(),
  winRate: z.number(),
  interval,
};

export const winRatesReply = z.object({
  sides: z.array(z.object({ ...scenarioKey, side: z.string(), ...record })).describe('by scenario and side, every bot together'),
  bots: z.array(z.object({ ...scenarioKey, side: z.string(), bot: z.string(), ...record })).describe('by scenario, side and bot'),
});

const range = z.object({ low: z.number(), high: z.number() });

export const ratingsReply = z.object({
  matches: z.number().int().describe('decided matches rated'),
  bradleyTerry: z
    .object({
      converged: z.boolean(),
      iterations: z.number().int(),
      bots: z.array(z.object({ bot: z.string(), elo: z.number(), interval: range.describe('95% Wald interval, Elo'), games: z.number().int() })).describe('strength net of side, relative to the average bot, strongest first'),
      sides: z
        .array(z.object({ ...scenarioKey, side: z.string(), winProbabilityEven: z.number(), interval: range.describe('95% interval'), games: z.number().int() }))
        .describe("each side's probability of winning between equal bots (draws as half)"),
    })
    .optional()
    .describe('Bradley–Terry fit with a side-advantage term per scenario; absent when there are no matches'),
  openskill: z
    .object({
      bots: z.array(z.object({ bot: z.string(), mu: z.number(), sigma: z.number(), ordinal: z.number(), games: z.number().int() })),
      mirrorMatches: z.number().int().describe('matches of a bot against itself, left out'),
    })
    .optional()
    .describe('openskill (Plackett–Luce) over the matches in the order they ended; ordinal = mu − 3 sigma'),
});

export const balanceReply = z.object({
  filter: z.record(z.string(), z.unknown()),
  scenarios: z.array(
    z.object({
      ...scenarioKey,
      matches: z.number().int(),
      sides: z.array(
        z.object({
          side: z.string(),
          powers: z.array(z.string()),
          games: z.number().int(),
          wins: z.number().int(),
          losses: z.number().int(),
          draws: z.number().int(),
          winRate: z.number(),
          interval: range.describe('95% Wilson interval of the win rate as played'),
          net: z.object({ winProbability: z.number(), interval: range, matches: z.number().int() }).optional().describe('win probability between equal bots (Bradley–Terry), with its 95% interval'),
        }),
      ),
      lengths: z.array(z.object({ metric: z.enum(['turns', 'impulses', 'decisions']), mean: z.number(), p50: z.number(), p90: z.number(), min: z.number(), max: z.number() })),
      firstMove: z.object({ seat: z.string(), side: z.string().optional(), matches: z.number().int() }).optional().describe('who makes the first decision, in how many matches'),
      victoryConditions: z.array(z.object({ reason: z.string(), winners: z.array(z.string()), matches: z.number().int(), share: z.number() })),
    }),
  ),
  fit: z.object({ converged: z.boolean(), iterations: z.number().int(), bots: z.array(z.object({ bot: z.string(), elo: z.number(), interval: range, games: z.number().int() })) }).optional(),
});

/** `GET /api/balance/sweep`: which sweeps, and the margin of the stopped-moving rule. */
export const sweepQuery = z.object({
  game: name('game id').optional(),
  scenario: name('scenario id').optional(),
  tournament: name('tournament id (a strength-sweep tournament)').optional(),
  margin: z.coerce.number().gt(0).lt(1).optional().describe('a change in a side’s win rate whose 95% interval lies within ±margin counts as none (default 0.1)'),
});

const stepReply = z
  .object({
    from: z.number(),
    to: z.number(),
    pValue: z.number().describe('χ² test of homogeneity on the two levels’ outcomes (first side won, second won, drawn)'),
    changes: z.array(z.object({ side: z.string(), change: z.number(), interval: range.describe('Newcombe’s 95% interval of the change') })),
    verdict: z.enum(['moved', 'held', 'unclear']),
  })
  .describe('this level against the one below it');

export const sweepReply = z.object({
  filter: z.record(z.string(), z.unknown()),
  margin: z.number(),
  scenarios: z.array(
    z.object({
      ...scenarioKey,
      tournament: z.string(),
      bot: z.string().describe('the swept bot without its swept parameter'),
      param: z.string(),
      levels: z.array(
        z.object({
          level: z.number(),
          factor: z.number().describe('level / the first level'),
          entrant: z.string().describe('the level’s entrant name, such as `mcts iterations=800` (`mcts@800` in sweeps recorded before 2026-11-30)'),
          bot: z.string(),
          games: z.number().int(),
          draws: z.number().int(),
          forfeits: z.number().int().optional().describe('of the games, forfeits (counted as won by the other side)'),
          sides: z.array(z.object({ side: z.string(), powers: z.array(z.string()), ...record })),
          lengths: z.array(z.object({ metric: z.enum(['turns', 'impulses', 'decisions']), mean: z.number(), p50: z.number(), p90: z.number() })),
          step: stepReply.optional(),
        }),
      ),
      verdict: z.object({ status: z.enum(['stopped moving', 'still moving', 'not enough games']), level: z.number().optional(), text: z.string() }),
    }),
  ),
});

export const lengthsReply = z.object({
  lengths: z.array(
    z.object({
      ...scenarioKey,
      metric: z.enum(['turns', 'impulses', 'decisions']),
      matches: z.number().int(),
      mean: z.number(),
      p50: z.number(),
      p90: z.number(),
      min: z.number(),
      max: z.number(),
      buckets: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
    }),
  ),
});

const measure = z.object({ name: z.string().describe('a short name for axes and menus'), description: z.string() });

export const gamesReply = z.object({
  games: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      rulesVersion: z.string(),
      measures: z
        .object({ score: measure, margin: measure })
        .optional()
        .describe("what the game's scores (matches, curves) and margins count; absent when the game does not say"),
    }),
  ),
});

export const curvesReply = z.object({
  curves: z.array(
    z.object({
      ...scenarioKey,
      turn: z.number().int(),
      impulse: z.number().int(),
      power: z.string(),
      matches: z.number().int(),
      meanScore: z.number().describe("mean of the game's per-impulse score: see its `measures.score` (GET /api/games)"),
      meanLosses: z.number(),
      meanControl: z.number(),
      meanUnits: z.number().optional().describe('mean units on the map, where the game reports them'),
    }),
  ),
});

export const matchSummary = z.object({
  ...scenarioKey,
  matchId: z.string(),
  tournament: z.string(),
  seed: z.number().int(),
  kind: z.string(),
  sides: z.record(z.string(), z.string()),
  sideBots: z.record(z.string(), z.string()),
  scores: z.record(z.string(), z.number()).describe("each power's final score: what it counts is the game's `measures.score` (GET /api/games)"),
  margin: z.number().describe("the game's margin of the result, 0 without one: what it counts is the game's `measures.margin` (GET /api/games)"),
  reason: z.string(),
  detail: z.string(),
  turns: z.number().int(),
  impulses: z.number().int(),
  decisions: z.number().int(),
  wallMs: z.number(),
  startedAt: z.string(),
  endedAt: z.string(),
  worker: z.string(),
  finalHash: z.string(),
});

export const matchesReply = z.object({
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  matches: z.array(matchSummary),
  next: z.string().optional().describe('cursor of the next page: pass it as `after`; absent on the last page'),
});

const position = z.object({ turn: z.number().int(), impulse: z.number().int(), phase: z.string(), step: z.string() });

export const matchReply = z.object({
  match: matchSummary,
  impulses: z.array(
    z.object({
      seq: z.number().int(),
      position,
      activePowers: z.array(z.string()),
      decisions: z.number().int(),
      scores: z.record(z.string(), z.number()),
      losses: z.record(z.string(), z.number()),
      control: z.record(z.string(), z.number()),
      extra: z.record(z.string(), z.number()).describe("the game's other figures (Blitz: <power>.units, .size, .objectives)"),
      stateHash: z.string(),
    }),
  ),
  events: z.array(
    z.object({
      seq: z.number().int(),
      impulseSeq: z.number().int(),
      position,
      type: z.string(),
      power: z.string(),
      text: z.string(),
      data: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});

export const replayReply = z.unknown().describe("the match's replay file, as `salient play --replay` writes it and `salient replay` reads it");

const boardUnit = z.object({
  id: z.string(),
  power: z.string(),
  label: z.string().describe("its counter's text (`ARM 3`, `GE 4-6-4`)"),
  type: z.string().optional().describe("its type in the game's words (`inf`, `tank`, `air`)"),
  status: z.array(z.string()).optional().describe("states its counter marks, in the game's words (`demoralized`, `unsupplied 2`, `entrenched 2`)"),
});

const boardMarker = z.object({ kind: z.string().describe('`fort`, `entrenchment`, ... (the game\'s own names)'), power: z.string().optional(), label: z.string() });

const boardHexLayout = z
  .object({
    scheme: z.string().describe('numbering scheme of the printed hex ids'),
    orientation: z.enum(['pointy', 'flat']),
    terrains: z.array(z.object({ id: z.string(), name: z.string(), water: z.boolean().describe('sea or lake: nobody controls it') })),
    hexes: z.array(
      z.object({
        id: z.string().describe('printed hex id'),
        x: z.number().describe('centre, east, in units of the distance between neighbouring centres'),
        y: z.number().describe('centre, south, in the same units'),
        terrain: z.string(),
        group: z.string().optional().describe('country'),
        name: z.string().optional(),
        port: z.boolean().optional(),
      }),
    ),
    hexsides: z.array(z.object({ a: z.string(), b: z.string(), features: z.array(z.string()).describe('`river`, `major-river`, `lake`, `sea`, `strait`, `alpine`, `border`'), name: z.string().optional() })),
    cities: z.array(z.object({ hex: z.string(), name: z.string(), kind: z.enum(['major', 'minor']), capital: z.boolean().optional() })),
    rail: z.array(z.tuple([z.string(), z.string()])),
  })
  .describe('a hex map (hex games); frames are then keyed by printed hex id');

export const boardReply = z.object({
  matchId: z.string(),
  game: z.string(),
  scenario: z.string(),
  sides: z.array(z.object({ id: z.string(), name: z.string(), powers: z.array(z.string()) })),
  layout: z.object({
    areas: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          kind: z.enum(['land', 'sea']),
          lon: z.number(),
          lat: z.number(),
          group: z.string().optional(),
          shape: z
            .union([z.object({ type: z.literal('Polygon'), coordinates: z.array(z.array(z.array(z.number()))) }), z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(z.array(z.array(z.number())))) })])
            .optional()
            .describe("the area's printed outline (GeoJSON, longitude and latitude) where the pack gives it"),
        }),
      )
      .describe('areas of an area map; empty for a hex map'),
    links: z.array(z.tuple([z.string(), z.string()])),
    hex: boardHexLayout.optional(),
    focus: z.array(z.string()).optional().describe('areas or hexes where the scenario is mainly fought, framed first'),
  }),
  frames: z
    .array(
      z.object({
        impulse: z.number().int().describe('the impulse this frame ends (its seq); -1 for the start'),
        position,
        control: z.record(z.string(), z.string()),
        units: z.record(z.string(), z.array(boardUnit)),
        markers: z.record(z.string(), z.array(boardMarker)).optional().describe('forts, entrenchments and other markers by area or hex'),
        events: z.array(z.object({ type: z.string(), power: z.string(), text: z.string() })),
      }),
    )
    .describe('the start, then the map at the end of each impulse with its events'),
  steps: z
    .array(
      z.object({
        by: z.string().describe('a power, or `chance`'),
        choice: z.string(),
        frame: z.number().int().describe('the index in `frames` of the impulse frame this step comes after'),
        position: position.describe('where the game stands after the step'),
        events: z.array(z.object({ type: z.string(), power: z.string(), text: z.string(), data: z.record(z.string(), z.unknown()).optional() })),
        control: z.record(z.string(), z.string().nullable()).optional().describe('areas (hexes) whose control changed: the new holder, null for nobody'),
        units: z.record(z.string(), z.array(boardUnit).nullable()).optional().describe('areas (hexes) whose units changed: the units now there, null for none'),
        markers: z.record(z.string(), z.array(boardMarker).nullable()).optional(),
      }),
    )
    .describe('every step of the log (each decision and chance outcome): who chose what, its events with their data, and what it changed on the map'),
});

export const tournamentSummary = z.object({
  id: z.string(),
  game: z.string(),
  scenarios: z.array(z.string()),
  bots: z.array(z.string()),
  matches: z.number().int(),
  kinds: z.record(z.string(), z.number().int()),
  firstStartedAt: z.string().describe("'' while no match is recorded"),
  lastEndedAt: z.string(),
  name: z.string().optional(),
  planned: z.number().int().optional().describe('matches in the plan, from the runner'),
  executor: z.string().optional().describe('local (one machine), queue (workers), unknown (matches recorded with no runner\'s record)'),
  state: z
    .enum(['submitted', 'running', 'stopped', 'finished', 'failed'])
    .describe(
      'one state, the same in this list, on its page and in `salient tournament list`/`status`: submitted (on the queue, nothing started), running, stopped (its SPRT decided, or it was cancelled), finished (its plan played out), failed (matches failed for good, or its runner died)',
    ),
  reason: z.string().describe('the state and why, one line: "stopped: SPRT accepted H1 after 135 pairs", "failed: 3 matches failed (infrastructure)"'),
  recordedState: z.string().optional().describe("the runner's own record: running, finished, cancelled or failed (local runs), submitted (queue)"),
  done: z.number().int().describe('matches finished (with a result or an engine error)'),
  lastActivity: z.string().describe("its latest sign of life (ISO; '' when unknown)"),
  source: z.enum(['queue', 'store']).describe("where the state and counts come from: the queue's workers, or the store"),
  updatedAt: z.string().optional(),
});

export const tournamentsReply = z.object({ tournaments: z.array(tournamentSummary) });

export const progress = z
  .object({
    source: z.enum(['queue', 'store']).describe("the queue's counts, or the matches recorded against the runner's plan"),
    state: z.enum(['submitted', 'running', 'stopped', 'finished', 'failed']).describe('the tournament\'s state (see `tournament.state`)'),
    total: z.number().int(),
    waiting: z.number().int(),
    active: z.number().int(),
    completed: z.number().int(),
    failed: z.number().int(),
    unplayed: z.number().int().optional().describe('planned matches never played: the stop rule ended the tournament first, or it was cancelled'),
  })
  .describe('live progress: from the queue for tournaments submitted through Redis, else from the store');

/** A figure that is infinite when every pair went one way (JSON has no infinity: null). */
const figure = z.number().nullable();
const span = z.object({ low: figure, high: figure });
export const sprtSchema = z
  .object({
    rule: z.literal('sprt'),
    candidate: z.string(),
    baseline: z.string(),
    elo0: z.number(),
    elo1: z.number(),
    alpha: z.number(),
    beta: z.number(),
    llr: z.number(),
    lower: z.number(),
    upper: z.number(),
    state: z.enum(['continue', 'H0', 'H1']).describe('where the LLR is now'),
    accepted: z.enum(['H0', 'H1']).optional().describe('the hypothesis accepted, latched when the LLR first reached a bound'),
    reason: z.string().optional().describe('why the test stopped the tournament (accepted, or the plan ran out)'),
    pairs: z.number().int().describe('side-swapped pairs counted'),
    pentanomial: z.array(z.number().int()).length(5).describe('pairs scoring 0, ½, 1, 1½, 2 for the candidate'),
    pendingPairs: z.number().int(),
    voidedPairs: z.number().int(),
    elo: z.object({ elo: figure, ci: span, plusMinus: figure, los: figure }).describe('logistic Elo of the candidate, 95% interval, likelihood of superiority'),
    nelo: z.object({ nelo: figure, ci: span }).describe('normalized Elo (the scale of elo0/elo1), 95% interval'),
    sprtElo: z
      .object({ elo: figure, ci: span, los: figure })
      .optional()
      .describe("once the test decided: the Elo estimate allowing for the early stop (fishtest's SPRT-adjusted estimate), 95% interval, LOS"),
    matchesSeen: z.number().int(),
    matches: z.number().int(),
  })
  .describe(
    "the sequential probability ratio test of a stop: sprt tournament (fishtest's figures), from the outcomes its executor fed the test in plan order: the queue's when it runs there, else the matches recorded in the store; `salient tournament status` reads the same",
  );

const sideRecord = z.object({ games: z.number().int(), wins: z.number().int(), losses: z.number().int(), draws: z.number().int() });
const standingsRow = sideRecord.extend({
  name: z.string().describe('entrant name, as in the spec'),
  score: z.number(),
  scorePct: z.number().nullable(),
  bySide: z.record(z.string(), sideRecord),
  forfeits: z.number().int(),
  errors: z.number().int(),
  cancelled: z.number().int(),
  meanDecisions: z.number().nullable(),
  meanImpulses: z.number().nullable(),
});
const crossCell = sideRecord.extend({ score: z.number() });
export const resultsSchema = z
  .object({
    standings: z.array(standingsRow).describe('by entrant (completed, adjudicated and forfeited matches count; a forfeit is a loss), with results by side'),
    byScenario: z.array(z.object({ scenario: z.string(), standings: z.array(standingsRow) })).describe('the same standings over each scenario\'s matches'),
    pairings: z
      .array(
        sideRecord.extend({
          first: z.string(),
          second: z.string(),
          score: z.number(),
          scorePct: z.number().nullable(),
          drawRatio: z.number().nullable().describe('drawn share of the counted games'),
          elo: z.object({ elo: figure, ci: span, plusMinus: figure, los: figure }).nullable().describe('Elo of first over second, 95% interval, likelihood of superiority (LOS)'),
          model: z.enum(['pentanomial', 'trinomial']).describe('from the side-swapped pairs (as fastchess) or from the games (as cutechess-cli)'),
          pairs: z.number().int().optional(),
          pentanomial: z.array(z.number().int()).length(5).optional().describe('pairs scoring 0, ½, 1, 1½, 2 for first'),
          forfeits: z.number().int(),
          errors: z.number().int(),
        }),
      )
      .describe("per pairing, the first entrant's figures (a gauntlet's challenger first)"),
    crossTable: z
      .object({ entrants: z.array(z.string()), cells: z.record(z.string(), z.record(z.string(), crossCell)) })
      .describe("entrant x entrant: cells[row][column] is the row entrant's results against the column entrant"),
  })
  .describe('results by entrant as tournament managers (cutechess-cli, fastchess) report them, from the same outcomes as `salient tournament status`');

export const tournamentReply = z.object({
  tournament: tournamentSummary,
  state: tournamentSummary.shape.state,
  reason: tournamentSummary.shape.reason,
  counts: z
    .object({
      planned: z.number().int(),
      done: z.number().int(),
      forfeits: z.number().int(),
      errors: z.number().int(),
      failed: z.number().int(),
      running: z.number().int(),
      waiting: z.number().int(),
      unplayed: z.number().int(),
    })
    .describe('matches: planned; done (with a result or an engine error), of which forfeited and errors; failed for good unplayed (queue); running; waiting; never to be played'),
  standings: z.array(z.object({ bot: z.string(), games: z.number().int(), wins: z.number().int(), losses: z.number().int(), draws: z.number().int(), score: z.number(), winRate: z.number(), interval })),
  sides: winRatesReply.shape.bots,
  progress: progress.optional(),
  sprt: sprtSchema.optional(),
  results: resultsSchema.optional(),
  notes: z.array(z.string()).describe('what could not be read (a queue that did not answer, a spec that cannot be planned here)'),
});

export const errorReply = z.object({
  error: z.string().describe('a stable code'),
  message: z.string().describe('what was wrong and what to do'),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  requestId: z.string().optional(),
});

export const workerSpool = z.object({
  worker: z.string(),
  pending: z.number().int().describe('finished matches waiting in this worker\'s spool for the ClickHouse server'),
  oldestAt: z.string().optional(),
  since: z.string().optional().describe('when its spool last went from empty to not empty'),
  updatedAt: z.string(),
});

export const healthReply = z.object({
  status: z.enum(['ok', 'degraded']),
  clickhouse: z.object({ ok: z.boolean(), where: z.string(), error: z.string().optional() }),
  redis: z.object({ configured: z.boolean(), ok: z.boolean().optional(), where: z.string().optional(), error: z.string().optional() }),
  spool: z
    .object({ pending: z.number().int(), workers: z.array(workerSpool) })
    .optional()
    .describe('with a queue: matches workers played that wait in their telemetry spools (not in the store yet, so not in any figure here)'),
});

export const submitBody = z
  .strictObject({
    spec: z.string().min(1).max(200_000).describe('the tournament spec, YAML or JSON text, as `salient tournament run` reads it (at most 200,000 characters, nested at most 64 levels)'),
    format: z
      .enum(['yaml', 'json'])
      .optional()
      .describe(
        "how to read `spec`. When absent: JSON if its first non-blank character is `{` or `[`, else YAML (the CLI's rule for a file that is neither .json nor .yaml/.yml). JSON is read strictly: no trailing commas or comments. Give 'yaml' for a YAML spec in flow style (`{game: blitz, ...}`).",
      ),
  })
  .describe('unknown fields are refused');

export const submitReply = z.object({
  tournamentId: z.string(),
  matches: z.number().int(),
  jobs: z.number().int().describe('match jobs, each a batch of batchPairs side-swapped pairs'),
  batchPairs: z.number().int().describe('side-swapped pairs per match job (sized so a job lasts about a second)'),
  added: z.number().int(),
});
export const retryReply = z.object({
  tournamentId: z.string(),
  requeued: z.number().int().describe('matches put back on the queue under their own ids'),
  failed: z.number().int().describe('of which had failed for good (infrastructure faults)'),
  cancelled: z.number().int().describe('of which had been cancelled'),
  uncancelled: z.boolean().describe('the tournament had been cancelled, and is not any more'),
});
export const cancelReply = z.object({
  tournamentId: z.string(),
  removed: z.number().int().describe('matches taken off the queue'),
  running: z.number().int().describe('matches running when cancelled; their workers abort them within about a second'),
});
