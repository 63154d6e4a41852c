/**
 * A planner over whole impulses: Online Evolutionary Planning (Justesen, Mahlmann, Risi and Togelius,
 * IEEE TCIAIG 2017), in the rolling-horizon form of the TAG framework, through the game contract only.
 *
 * **The plan** is the sequence of the bot's own decisions from the one asked until its impulse ends: an
 * `apply` whose `Step.boundary` is `impulse` or `turn`, or the end of the game. A `phase` boundary does
 * not end it (a Blitz! impulse runs through rebase, move, announce and resolve steps). Decisions of
 * other powers inside the impulse (a defender's commitments, its damage) are not in the plan: the
 * opponent model plays them (see `reply`). A plan holds at most `depth` own decisions; a plan that
 * reaches the cap ends there and is scored where it stopped. In Blitz! the cap is a safeguard, not a
 * horizon: the default, 80, is well above the longest impulse of Scenario A we have seen (about 35 own
 * decisions). An Empires & Alliances impulse (a move or more per unit) runs longer: there a plan covers
 * its first 80 decisions, and the rest of the impulse is re-planned (the `replan` budget) when the bot
 * gets there.
 *
 * **Reactions.** Asked in another power's impulse (a defender's support, pairing, losses or retreats: a
 * decision of a power the game's `model.phasing` does not name), the plan is the bot's decisions until
 * the mover's impulse ends, as above (`react=impulse`, the default), and each genome's walk plays the
 * rest of that impulse by the cheap policy: in Empires & Alliances every later attack of the Combat
 * Phase, greedy over every option of each. `react=combat` scores it sooner: at the mover's first decision
 * made outside a combat (`model.inCombat`) once the walk has been in one, the reaction's own or the next
 * one the mover resolves. The combat's dice and its results, and the mover's decisions inside it (its
 * split, losses, advances, played by the cheap policy), are in the evaluation; the mover's next attack
 * is not. A Blitz! defence committed before the combats are resolved is thus scored after the first of
 * them. A walk so stopped plays no reply (`reply` acts at the impulse's end only). It needs both hooks
 * of the game's model; Blitz! and E&A give them. Measured (2026-11-30) on three real E&A 1918
 * `pair-defenders` positions, full searches of 994 evaluations: 4-19 times less CPU than
 * `react=impulse`, as many times fewer calls of the evaluation; most of what is left is greedy over the
 * attacker's split (13.3). On Blitz! B it changes nothing: after a defence there the mover's impulse
 * has one or two combats left, so the walk was short already, and the cost is the budget itself. On
 * Blitz! D, where a reaction may come in a sea combat early in the impulse, one game each way against
 * mcts: 230 and 175 CPU ms a reaction on average (at most 2.0 s) against 4.4 and 3.3 s (at most 31 s).
 *
 * **A genome** is one real gene in [0,1) per own decision; decision i takes option floor(g_i × n_i) of
 * the n_i options actually posed there, so every genome is legal in every state it meets (the repair);
 * genes past the impulse's end go unused. A generation keeps its best quarter (elitism), fills the rest
 * with children of two parents picked by binary tournaments, crossed uniformly and mutated (`mut` genes
 * redrawn on average among those the parent used, at least one). The first population holds the plan
 * carried from the previous search (see below), the greedy policy's plan, and random genomes.
 *
 * **Scoring**: a genome is played from a state drawn with `Game.model.sample(observation, u)`, chance
 * nodes drawn from a stream of the bot's own; its score is the mean over `samples` such draws of the
 * game's evaluation (`Game.model.evaluate`) for the bot's powers where the plan ended, or, with a
 * modelled reply, after the opponent's next impulse played by a cheap policy (Baier and Cowling's point,
 * AIIDE 2018: look past one's own turn). Within a generation every genome meets the same draws (common
 * random numbers), so genomes are compared on the same dice; each generation draws new ones, and the
 * elites are scored again on them and ranked by their mean over every draw they met, so a plan is not
 * kept for one lucky roll. The plan chosen is the best so ranked when the budget is spent. Few draws
 * per plan still favour gambles that happened to pay (the winner's curse of noisy evolution): `samples`
 * trades generations for a steadier estimate.
 *
 * **Budget**, in evaluations (one genome played to its end once): `evals` when an impulse starts; the
 * bot then plays the stored plan decision by decision while the game poses what the plan expected (the
 * same option keys, replayed on one sampled draw). When reality departs (a die fell otherwise, the
 * options differ) it plans again from where it stands with `replan` × `evals`, the population carried
 * over and shifted by the decisions made since (rolling horizon). So the impulse, not the decision, has
 * the budget; `planStats` says what each bot spent, per decision, for "equal time" comparisons. A search
 * runs whole generations (pop × samples evaluations) while they fit, at least one; the greedy plan that
 * seeds a fresh search and the replay of the chosen plan count one evaluation each.
 * Deterministic for a seed on any machine; an optional wall-clock cap (`ms`, per search) stops early,
 * and when it is the cap that stops a search the game depends on the machine's speed (say so when you
 * use it, as for mcts).
 *
 * The defaults are what measured best, weakly: `reply=greedy` sees the counterattack an impulse invites
 * but costs four to five times as much per evaluation as `none` on Blitz! A. Germany in A against greedy,
 * seeds 1-20 side by side (2026-11-30): `reply=none,evals=1000` took Paris once and ended 0.25 points
 * ahead on score on average, at 63-67 ms a searched decision; `reply=greedy,evals=400` never took it and
 * ended 1.95 behind at 97-133 ms (mcts:iterations=300,rollout=0: never, 2.2 behind, 78-99 ms). Twenty
 * games cannot separate them; the cost can.
 */
import { RngStream, SalientError } from '@salient/engine';
import type { AnyGame, BotModel, ChanceOutcome, Json, PendingDecision, Step } from '@salient/engine';
import type { Bot, BotContext, DecisionRequest } from '@salient/runner';
import { factoryFromContext, intParam, numParam, requireModel, type BotDefinition } from './bot-definition.ts';

/** How other powers' decisions are played inside a plan, and whether the opponent's next impulse is played after it. */
export type ReplyPolicy = 'greedy' | 'random' | 'none';

/** How far a plan made in another power's impulse (a reaction) is played before it is scored. */
export type ReactPolicy = 'impulse' | 'combat';

export interface PlanOptions {
  /** Evaluations when an impulse starts (the deterministic budget). */
  evals: number;
  /** Population size. */
  pop: number;
  /** Genes redrawn per child, on average (at least one). */
  mut: number;
  /** Chance draws (sampled states and dice) each genome is scored on per generation. */
  samples: number;
  /** `greedy` or `random`: the policy of other powers inside the impulse and through the reply; `none`: score at the impulse's end (other powers inside it play greedy). */
  reply: ReplyPolicy;
  /** Own decisions a plan may hold at most. */
  depth: number;
  /** Fraction of `evals` spent when the game departs from the plan in the middle of an impulse. */
  replan: number;
  /** Optional wall-clock cap per search in ms (0: none). */
  ms: number;
  /** In a reaction: `impulse` plays the rest of the mover's impulse before scoring; `combat` scores at the mover's first decision outside a combat, once one is fought. */
  react: ReactPolicy;
}

const DEFAULTS: PlanOptions = { evals: 1000, pop: 16, mut: 1.5, samples: 1, reply: 'none', depth: 80, replan: 0.25, ms: 0, react: 'impulse' };
const REPLIES: readonly ReplyPolicy[] = ['greedy', 'random', 'none'];
const REACTS: readonly ReactPolicy[] = ['impulse', 'combat'];

export const planBotDefinition: BotDefinition<PlanOptions> = {
  name: 'plan',
  version: '2',
  summary: "Plans whole impulses by evolution (online evolutionary planning): sequences of its own decisions scored by the game's evaluation at the impulse's end, after a modelled reply.",
  params: {
    evals: `evaluations (one plan played once) when an impulse starts, the deterministic budget (default ${DEFAULTS.evals})`,
    pop: `population of plans (default ${DEFAULTS.pop})`,
    mut: `genes redrawn per child on average, at least one (default ${DEFAULTS.mut})`,
    samples: `chance draws each plan is scored on per generation (default ${DEFAULTS.samples})`,
    reply: `greedy, random or none: how other powers are played inside the impulse and in their next impulse before scoring; none scores at the impulse's end (default ${DEFAULTS.reply})`,
    depth: `own decisions a plan holds at most (default ${DEFAULTS.depth})`,
    replan: `fraction of evals spent when the game departs from the plan mid-impulse (default ${DEFAULTS.replan})`,
    ms: 'wall-clock cap per search in ms; when it stops a search the game depends on machine speed (default 0: none)',
    react: `impulse or combat: how far a plan made in another power's impulse (a reaction: support, losses, retreats) is played before it is scored: combat, until the combat it answers is fought out (that power's next decision outside a combat); impulse, to the end of that power's impulse (default ${DEFAULTS.react})`,
  },
  parse: (params) => {
    const reply = params.reply ?? DEFAULTS.reply;
    if (!REPLIES.includes(reply as ReplyPolicy)) {
      throw new SalientError('BAD_ARGUMENT', `Bot 'plan': parameter reply=${reply} must be one of ${REPLIES.join(', ')}.`);
    }
    const react = params.react ?? DEFAULTS.react;
    if (!REACTS.includes(react as ReactPolicy)) {
      throw new SalientError('BAD_ARGUMENT', `Bot 'plan': parameter react=${react} must be one of ${REACTS.join(', ')}.`);
    }
    return {
      evals: intParam('plan', params, 'evals', DEFAULTS.evals, 1, 10_000_000),
      pop: intParam('plan', params, 'pop', DEFAULTS.pop, 2, 10_000),
      mut: numParam('plan', params, 'mut', DEFAULTS.mut, 0, 1_000),
      samples: intParam('plan', params, 'samples', DEFAULTS.samples, 1, 1_000),
      reply: reply as ReplyPolicy,
      depth: intParam('plan', params, 'depth', DEFAULTS.depth, 1, 100_000),
      replan: numParam('plan', params, 'replan', DEFAULTS.replan, 0, 1),
      ms: intParam('plan', params, 'ms', DEFAULTS.ms, 0, 3_600_000),
      react: react as ReactPolicy,
    };
  },
  create: createPlan,
};

/** The planning bot as a plain factory (parameters from the seat spec). */
export const planBot = factoryFromContext(planBotDefinition);



/** What a planning bot has spent so far in its match: read by benches comparing time per decision. */
export interface PlanStats {
  /** Decisions asked of the bot. */
  decisions: number;
  /** Searches at an impulse's start (full budget) and mid-impulse (the `replan` budget). */
  plans: number;
  replans: number;
  /** Decisions answered from a stored plan, with no search. */
  followed: number;
  evaluations: number;
  generations: number;
  /** Time spent inside `decide`, in ms (wall clock; for rates, never for choices). */
  ms: number;
}

/** A planning bot: a bot with the running totals of what it spent. */
export interface PlanBot extends Bot {
  readonly stats: PlanStats;
}

/** The spending totals of `bot` when it is a planning bot (through any registry factory), else undefined. */
export function planStats(bot: Bot): PlanStats | undefined {
  const stats = (bot as Partial<PlanBot>).stats;
  return bot.name === planBotDefinition.name && stats ? stats : undefined;
}

/** One own decision of the chosen plan as it was played on one draw: what was posed, what it takes. */
interface PlannedStep {
  /** The posed options' encodings, joined by newlines (compared with the request's labels). */
  keys: string;
  index: number;
}

/** What a search found, for the bot, tests and rationale text. */
export interface PlanReport {
  /** Index into the request's options. */
  index: number;
  evaluations: number;
  generations: number;
  /** Mean evaluation of the chosen plan over the last generation's draws. */
  score: number;
  /** The chosen plan's own decisions, as played on one draw from the decision asked on. */
  steps: PlannedStep[];
  /** The last population's genomes, best first (carried into a later search). */
  population: Float64Array[];
}

/** What a plan is carried over from: a previous search's population and how many own decisions were made since. */
export interface CarriedPlan {
  population: readonly Float64Array[];
  /** Own decisions taken since that search (the genes to drop from each genome's front). */
  shift: number;
}

/** The stored plan a bot is following. */
interface Following {
  steps: PlannedStep[];
  population: Float64Array[];
  /** Own decisions asked since the plan was made. */
  taken: number;
  /** The impulse it was made for (`turn/impulse` of the position). */
  impulse: string;
}

function createPlan(ctx: BotContext, options: PlanOptions): PlanBot {
  const { game } = ctx;
  const model = requireModel('plan', game, 'model (sampling and evaluation)');
  if (options.react === 'combat' && (!model.phasing || !model.inCombat)) {
    throw new SalientError('BAD_ARGUMENT', `Bot 'plan': react=combat needs game '${game.id}' to say whose impulse it is and when a combat is under way (Game.model.phasing and inCombat); it does not. Use react=impulse.`);
  }
  const stats: PlanStats = { decisions: 0, plans: 0, replans: 0, followed: 0, evaluations: 0, generations: 0, ms: 0 };
  let following: Following | undefined;
  return {
    name: planBotDefinition.name,
    version: planBotDefinition.version,
    stats,
    decide(request, signal) {
      const t0 = performance.now();
      try {
        stats.decisions++;
        const impulse = `${request.position.turn}/${request.position.impulse}`;
        const plan = following?.impulse === impulse ? following : undefined;
        if (plan) {
          const step = plan.steps[plan.taken];
          plan.taken++;
          if (step && step.keys === request.labels.join('\n')) {
            stats.followed++;
            return { index: step.index, rationale: `plan step ${plan.taken} of ${plan.steps.length}` };
          }
        }
        if (request.options.length === 1) return 0;
        const carried = plan ? { population: plan.population, shift: plan.taken - 1 } : undefined;
        const budget = carried ? Math.max(1, Math.round(options.evals * options.replan)) : options.evals;
        const r = planSearch(game, model, ctx.rng, request, ownPowers(ctx, request), { ...options, evals: budget }, carried, signal);
        if (carried) stats.replans++;
        else stats.plans++;
        stats.evaluations += r.evaluations;
        stats.generations += r.generations;
        following = { steps: r.steps, population: r.population, taken: 1, impulse };
        return {
          index: r.index,
          rationale: `${carried ? 're-plan' : 'plan'}: ${r.evaluations} evaluations, ${r.generations} generations; best ${r.score.toFixed(2)} over ${r.steps.length} decisions; ${request.labels[r.index]}`,
        };
      } finally {
        stats.ms += performance.now() - t0;
      }
    },
  };
}

/** The powers whose decisions make up the bot's plans: those of its seat (the one asked, at least). */
function ownPowers(ctx: BotContext, request: DecisionRequest): readonly string[] {
  return ctx.powers.includes(request.power) ? ctx.powers : [...ctx.powers, request.power];
}

/** Steps a playout may take in all (own, other and chance) before it is scored where it stands: a guard against a game that never ends an impulse. */
const stepCap = (depth: number) => 50 * depth + 1_000;

/**
 * Plan from `request` with `options.evals` evaluations (at least one generation) and report the choice.
 * `own`: the powers whose decisions the genomes make. Exported for tests and benchmarks.
 */
export function planSearch(
  game: AnyGame,
  model: BotModel<Json, unknown>,
  rng: RngStream,
  request: DecisionRequest,
  own: readonly string[],
  options: PlanOptions,
  carried?: CarriedPlan,
  signal?: AbortSignal,
): PlanReport {
  const play = new Playout(game, model, request, new Set(own), options);
  const { pop, samples, depth } = options;
  const population: Genome[] = [];
  const add = (genes: Float64Array) => population.push({ genes, sum: 0, n: 0, used: 0 });
  if (carried) {
    for (const g of carried.population) {
      if (population.length >= pop) break;
      const shifted = new Float64Array(depth);
      for (let i = 0; i < depth; i++) shifted[i] = i + carried.shift < g.length ? g[i + carried.shift]! : rng.unit();
      add(shifted);
    }
  }
  let evaluations = 0;
  // The greedy policy's plan, played on a draw of its own: evolution starts from at least what greedy would do.
  if (population.length < pop) {
    add(play.greedyGenome(drawStream(rng)));
    evaluations++;
  }
  while (population.length < pop) add(randomGenome(rng, depth));

  const deadline = options.ms > 0 ? performance.now() + options.ms : Infinity;
  let generations = 0;
  for (;;) {
    // Common random numbers: every genome of this generation meets the same draws.
    const draws = Array.from({ length: samples }, () => drawStream(rng).state());
    for (const g of population) {
      for (const d of draws) {
        const r = play.run(g.genes, new RngStream(0, 'plan', d));
        g.sum += r.score;
        g.n++;
        g.used = Math.max(g.used, r.used);
      }
    }
    evaluations += population.length * samples;
    generations++;
    rank(population);
    if (evaluations + pop * samples > options.evals || signal?.aborted || performance.now() > deadline) break;
    breed(population, rng, options);
  }
  const best = population[0]!;
  const steps = play.trace(best.genes, drawStream(rng));
  evaluations++;
  const first = steps[0];
  // The trace starts at the decision asked; its first index is the choice (the sampled state poses the same options).
  return { index: first?.index ?? 0, evaluations, generations, score: best.sum / best.n, steps, population: population.map((g) => g.genes) };
}

/** A plan in the population: its genes, and every draw it was scored on so far (elites keep theirs). */
interface Genome {
  genes: Float64Array;
  sum: number;
  n: number;
  /** Most own decisions it made on any draw (the genes that matter). */
  used: number;
}

/**
 * Best mean over the draws a genome met first (an elite's covers every generation it survived); ties go
 * to more draws, then the earlier in the population (elites before newcomers).
 */
function rank(population: Genome[]): void {
  const order = population.map((g, k) => ({ g, k, mean: g.sum / g.n }));
  order.sort((a, b) => b.mean - a.mean || b.g.n - a.g.n || a.k - b.k);
  population.splice(0, population.length, ...order.map((o) => o.g));
}

/** A stream for one draw (a sampled state and its dice), seeded from the bot's own stream. */
function drawStream(rng: RngStream): RngStream {
  return new RngStream(rng.int(0, 0x7fffffff), 'plan');
}

function randomGenome(rng: RngStream, depth: number): Float64Array {
  const g = new Float64Array(depth);
  for (let i = 0; i < depth; i++) g[i] = rng.unit();
  return g;
}

/** Replace all but the elites of `population` (ranked, best first) with children. */
function breed(population: Genome[], rng: RngStream, opts: PlanOptions): void {
  const n = population.length;
  const elites = Math.max(1, Math.floor(n / 4));
  // Binary tournament on rank (the population is sorted, so the lower index wins).
  const parent = () => population[Math.min(rng.int(0, n - 1), rng.int(0, n - 1))]!;
  const children: Genome[] = [];
  for (let c = elites; c < n; c++) {
    const a = parent();
    const b = parent();
    const genes = new Float64Array(a.genes.length);
    for (let i = 0; i < genes.length; i++) genes[i] = rng.int(0, 1) ? a.genes[i]! : b.genes[i]!;
    // Mutate among the genes the parents played (the rest change nothing), `mut` of them on average, one at least.
    const span = Math.max(1, Math.min(genes.length, Math.max(a.used, b.used)));
    const p = Math.min(1, opts.mut / span);
    let mutated = false;
    for (let i = 0; i < span; i++) {
      if (rng.unit() < p) {
        genes[i] = rng.unit();
        mutated = true;
      }
    }
    if (!mutated) genes[rng.int(0, span - 1)] = rng.unit();
    children.push({ genes, sum: 0, n: 0, used: 0 });
  }
  population.splice(elites, n - elites, ...children);
}

/** Plays genomes from sampled states: the impulse by the genome, other powers and the reply by the cheap policy. */
class Playout {
  private readonly cap: number;
  private readonly policy: 'greedy' | 'random';

  constructor(
    private readonly game: AnyGame,
    private readonly model: BotModel<Json, unknown>,
    private readonly request: DecisionRequest,
    private readonly own: ReadonlySet<string>,
    private readonly opts: PlanOptions,
  ) {
    this.cap = stepCap(opts.depth);
    this.policy = opts.reply === 'random' ? 'random' : 'greedy';
  }

  /** Score `genes` on the draw `rng`; `used`: own decisions the genome made. */
  run(genes: Float64Array, rng: RngStream): { score: number; used: number } {
    return this.walk(genes, rng, undefined);
  }

  /** The own decisions `genes` makes on the draw `rng`, with the options posed at each (impulse only). */
  trace(genes: Float64Array, rng: RngStream): PlannedStep[] {
    const steps: PlannedStep[] = [];
    this.walk(genes, rng, steps);
    return steps;
  }

  /** The genome the greedy policy would play through the impulse on the draw `rng`. */
  greedyGenome(rng: RngStream): Float64Array {
    const genes = new Float64Array(this.opts.depth);
    for (let i = 0; i < genes.length; i++) genes[i] = rng.unit();
    const recorded: number[] = [];
    this.walk(genes, rng, undefined, recorded);
    recorded.forEach((g, i) => (genes[i] = g));
    return genes;
  }

  private start(rng: RngStream): Json {
    const state = this.model.sample(this.request.observation, rng.unit());
    const p = this.game.pending(state);
    if (p.kind !== 'decision' || p.power !== this.request.power || p.options.length !== this.request.options.length) {
      throw new Error(
        `Bot 'plan': game '${this.game.id}' sampled a state (Game.model.sample) that does not pose the decision asked (${this.request.prompt} for ${this.request.power}, ${this.request.options.length} options); its sampling must agree with the observation.`,
      );
    }
    return state;
  }

  /**
   * Play from a fresh draw: own decisions by `genes` (or, with `greedy` given, by the greedy policy,
   * recording each choice as a gene) until the impulse ends, then the reply, and score.
   */
  private walk(genes: Float64Array, rng: RngStream, trace: PlannedStep[] | undefined, greedy?: number[]): { score: number; used: number } {
    const { game, own } = this;
    let state = this.start(rng);
    // The sampled state may be the observation itself: the first step copies, later ones may build in place.
    let owned = false;
    let used = 0;
    let inImpulse = true;
    const movers = this.movers(state);
    let fought = false;
    for (let steps = 0; steps < this.cap; steps++) {
      const p = game.pending(state);
      if (p.kind === 'terminal') break;
      if (movers && inImpulse) {
        // react=combat: score once a combat has been fought out and the mover is free to choose again.
        if (this.model.inCombat!(state)) fought = true;
        else if (fought && p.kind === 'decision' && movers.has(p.power)) break;
      }
      let step: Step<Json>;
      if (p.kind === 'chance') {
        step = this.apply(state, rng.sample(p.outcomes as readonly ChanceOutcome<unknown>[]), owned);
      } else if (inImpulse && own.has(p.power)) {
        if (used >= genes.length) break;
        let index: number;
        if (greedy) {
          step = this.greedyStep(state, p, rng, owned, true);
          index = this.lastIndex;
          greedy.push((index + 0.5) / p.options.length);
        } else {
          index = Math.floor(genes[used]! * p.options.length);
          step = this.apply(state, p.options[index], owned);
        }
        if (trace) trace.push({ keys: p.options.map((o) => game.encode(o)).join('\n'), index });
        used++;
      } else {
        step = this.policy === 'random' ? this.apply(state, p.options[rng.int(0, p.options.length - 1)], owned) : this.greedyStep(state, p, rng, owned, false);
      }
      state = step.state;
      owned = true;
      if (step.boundary === 'impulse' || step.boundary === 'turn') {
        if (!inImpulse || this.opts.reply === 'none' || trace || greedy) break;
        inImpulse = false;
      }
    }
    let score = 0;
    for (const pw of own) score += finite(this.model.evaluate(state, pw));
    return { score: score / own.size, used };
  }

  private lastIndex = 0;

  /**
   * With `react=combat`, where the decision asked is a reaction (none of the bot's powers is phasing at
   * `state`, `BotModel.phasing`): the phasing powers, whose first decision outside a combat, once the
   * walk has been in one, ends it. Otherwise undefined (the walk runs to the impulse's end).
   */
  private movers(state: Json): ReadonlySet<string> | undefined {
    if (this.opts.react !== 'combat' || !this.model.phasing || !this.model.inCombat) return undefined;
    const phasing = this.model.phasing(state);
    if (phasing.some((pw) => this.own.has(pw))) return undefined;
    return new Set(phasing);
  }

  private apply(state: Json, choice: unknown, owned: boolean): Step<Json> {
    const { game } = this;
    return (owned && game.applyOwned ? game.applyOwned(state, choice) : game.apply(state, choice)) as Step<Json>;
  }

  /**
   * One ply on the evaluation for the power deciding; ties broken from `rng`. With `chance`, an option
   * that leads straight into a chance node is judged by the mean over its outcomes (as the greedy bot).
   */
  private greedyStep(state: Json, p: PendingDecision<unknown>, rng: RngStream, owned: boolean, chance: boolean): Step<Json> {
    const { game, model } = this;
    if (p.options.length === 1) {
      this.lastIndex = 0;
      return this.apply(state, p.options[0], owned);
    }
    let best = -Infinity;
    let ties: number[] = [];
    const results: Step<Json>[] = [];
    p.options.forEach((option, i) => {
      const step = game.apply(state, option) as Step<Json>;
      results.push(step);
      let v: number;
      const outcomes = chance ? (model.chanceAt ? model.chanceAt(step.state) : chanceOf(game.pending(step.state))) : undefined;
      if (outcomes) v = outcomes.reduce((t, o) => t + o.p * finite(model.evaluate(game.apply(step.state, o.outcome).state as Json, p.power)), 0);
      else v = finite(model.evaluate(step.state, p.power));
      if (v > best) {
        best = v;
        ties = [i];
      } else if (v === best) ties.push(i);
    });
    const index = ties.length === 1 ? ties[0]! : rng.pick(ties);
    this.lastIndex = index;
    return results[index]!;
  }
}

function chanceOf(p: ReturnType<AnyGame['pending']>): readonly ChanceOutcome<unknown>[] | undefined {
  return p.kind === 'chance' ? (p.outcomes as readonly ChanceOutcome<unknown>[]) : undefined;
}

/** A NaN or infinite evaluation counts as a very bad (or very good) one rather than poisoning the means. */
function finite(v: number): number {
  return Number.isFinite(v) ? v : v === Infinity ? 1e9 : -1e9;
}
