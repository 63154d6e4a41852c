/**
 * Monte Carlo tree search over the game contract: UCT with chance nodes, information-set style.
 *
 * Each iteration draws one full state consistent with the bot's observation (`Game.model.sample`; for
 * open-information games that is the state itself), walks the tree from the decision being asked,
 * expands one new option, plays a short random rollout and scores where it stopped with the game's
 * evaluation (`Game.model.evaluate`). One tree serves every determinization: an edge is keyed by the
 * option's encoding, and selection counts how often an option was available (single-observer ISMCTS,
 * Cowling, Powley and Whitehouse 2012), so an option legal in only some sampled states is not
 * over-explored. Chance nodes are sampled by their probabilities from the bot's own stream.
 *
 * Every power's decisions in the tree are made for that power: each edge holds the value for the power
 * that chose it, so opponents are searched as maximising their own evaluation, not ours.
 *
 * Values: the evaluation's change from the root, for the power concerned, squashed into (0, 1) by a
 * logistic of width `scale` (the evaluation difference that counts as a clear edge). A won or lost
 * game, which evaluations score far beyond any position, lands at 1 or 0.
 *
 * The budget is in iterations, so a seed gives the same choice on any machine. An optional wall-clock
 * cap (`ms`) stops the search early; when it is the cap that stops it, the choice depends on the
 * machine's speed and the game is no longer reproducible from its seed (say so when you use it).
 */
import type { AnyGame, BotModel, ChanceOutcome, Json, RngStream } from '@salient/engine';
import type { Bot, BotContext, DecisionRequest } from '@salient/runner';
import { factoryFromContext, intParam, numParam, requireModel, type BotDefinition } from './bot-definition.ts';

export interface MctsOptions {
  /** Iterations per decision (the deterministic budget). */
  iterations: number;
  /** UCT exploration constant. */
  c: number;
  /** Random plies (decisions and chance draws) played after the tree before evaluating. */
  rollout: number;
  /** Evaluation difference mapped to a clear edge (logistic width). */
  scale: number;
  /** Optional wall-clock cap per decision in ms (0: none). */
  ms: number;
}

const DEFAULTS: MctsOptions = { iterations: 200, c: 1.4, rollout: 8, scale: 10, ms: 0 };

export const mctsBotDefinition: BotDefinition<MctsOptions> = {
  name: 'mcts',
  // 2: the games' evaluations were rebuilt (issue 31), so the same seed plays differently.
  version: '2',
  summary: "UCT tree search with chance nodes over sampled states (ISMCTS), short random rollouts scored by the game's evaluation.",
  params: {
    iterations: `iterations per decision, the deterministic budget (default ${DEFAULTS.iterations})`,
    c: `UCT exploration constant (default ${DEFAULTS.c})`,
    rollout: `random plies after the tree before evaluating, 0 to evaluate at once (default ${DEFAULTS.rollout})`,
    scale: `evaluation difference counted as a clear edge (default ${DEFAULTS.scale})`,
    ms: 'wall-clock cap per decision in ms; when it stops a search the game depends on machine speed (default 0: none)',
  },
  parse: (params) => ({
    iterations: intParam('mcts', params, 'iterations', DEFAULTS.iterations, 1, 1_000_000),
    c: numParam('mcts', params, 'c', DEFAULTS.c, 0, 100),
    rollout: intParam('mcts', params, 'rollout', DEFAULTS.rollout, 0, 10_000),
    scale: numParam('mcts', params, 'scale', DEFAULTS.scale, 1e-9, 1e9),
    ms: intParam('mcts', params, 'ms', DEFAULTS.ms, 0, 3_600_000),
  }),
  create: createMcts,
};

/** The MCTS bot as a plain factory (parameters from the seat spec). */
export const mctsBot = factoryFromContext(mctsBotDefinition);



/** One option out of a decision node: who chose it, how often it was tried and available, its value sum. */
interface Edge {
  readonly power: string;
  readonly child: TreeNode;
  visits: number;
  avail: number;
  value: number;
}

/** A point of the search: after a decision (edges by option key) or a chance node (children by outcome key). */
interface TreeNode {
  edges?: Map<string, Edge>;
  outcomes?: Map<string, TreeNode>;
}

/** What a finished search found at the root, for tests and rationale text. */
export interface SearchReport {
  /** Index into the request's options. */
  index: number;
  iterations: number;
  /** Root statistics by option label. */
  stats: { label: string; visits: number; mean: number }[];
}

function createMcts(ctx: BotContext, options: MctsOptions): Bot {
  const { game } = ctx;
  const model = requireModel('mcts', game, 'model (sampling and evaluation)');
  return {
    name: mctsBotDefinition.name,
    version: mctsBotDefinition.version,
    decide(request, signal) {
      if (request.options.length === 1) return 0;
      const r = search(game, model, ctx.rng, request, options, signal);
      const best = r.stats[r.index]!;
      return { index: r.index, rationale: `${r.iterations} iterations; ${best.label}: ${best.visits} visits, value ${best.mean.toFixed(3)}` };
    },
  };
}

/** Run one search for `request` and report the root. Exported for tests and benchmarks. */
export function search(
  game: AnyGame,
  model: BotModel<Json, unknown>,
  rng: RngStream,
  request: DecisionRequest,
  options: MctsOptions,
  signal?: AbortSignal,
): SearchReport {
  const root: TreeNode = {};
  const rootKeys = request.options.map((o) => game.encode(o));
  // Values are measured from the root position's evaluation, on one sampled state drawn when first needed.
  let baseState: Json | undefined;
  const baseline = new Map<string, number>();
  const base = (power: string): number => {
    let v = baseline.get(power);
    if (v === undefined) {
      baseState ??= model.sample(request.observation, 0);
      baseline.set(power, (v = finite(model.evaluate(baseState, power))));
    }
    return v;
  };
  const deadline = options.ms > 0 ? performance.now() + options.ms : Infinity;
  let done = 0;
  for (; done < options.iterations; done++) {
    if (signal?.aborted || (done > 0 && performance.now() > deadline)) break;
    iterate(game, model, rng, request, rootKeys, root, base, options);
  }
  const edges = root.edges ?? new Map<string, Edge>();
  const stats = rootKeys.map((label) => {
    const e = edges.get(label);
    return { label, visits: e?.visits ?? 0, mean: e && e.visits ? e.value / e.visits : 0 };
  });
  // Most visited; then the better mean; then the earlier option (a fixed rule keeps the choice reproducible).
  let index = 0;
  for (let i = 1; i < stats.length; i++) {
    const a = stats[i]!;
    const b = stats[index]!;
    if (a.visits > b.visits || (a.visits === b.visits && a.mean > b.mean)) index = i;
  }
  return { index, iterations: done, stats };
}

function iterate(
  game: AnyGame,
  model: BotModel<Json, unknown>,
  rng: RngStream,
  request: DecisionRequest,
  rootKeys: readonly string[],
  root: TreeNode,
  base: (power: string) => number,
  opts: MctsOptions,
): void {
  let state = model.sample(request.observation, rng.unit());
  const path: Edge[] = [];
  let node = root;
  let atRoot = true;
  let expanded = false;
  while (!expanded) {
    const p = game.pending(state);
    if (atRoot && (p.kind !== 'decision' || p.options.length !== rootKeys.length)) {
      throw new Error(
        `Bot 'mcts': game '${game.id}' sampled a state (Game.model.sample) that does not pose the decision asked (${request.prompt} for ${request.power}, ${rootKeys.length} options); its sampling must agree with the observation.`,
      );
    }
    if (p.kind === 'terminal') break;
    if (p.kind === 'chance') {
      const outcome = rng.sample(p.outcomes as readonly ChanceOutcome<unknown>[]);
      const key = game.encode(outcome);
      node.outcomes ??= new Map();
      let next = node.outcomes.get(key);
      if (!next) node.outcomes.set(key, (next = {}));
      node = next;
      state = game.apply(state, outcome).state as Json;
      continue;
    }
    // At the root the options are the ones asked about (the sampled state must agree with them).
    const choices: readonly unknown[] = atRoot ? request.options : p.options;
    const keys = atRoot ? rootKeys : choices.map((o) => game.encode(o));
    const power = atRoot ? request.power : p.power;
    atRoot = false;
    node.edges ??= new Map();
    const edges = node.edges;
    const untried: number[] = [];
    let best: Edge | undefined;
    let bestIndex = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < keys.length; i++) {
      const e = edges.get(keys[i]!);
      if (!e) {
        untried.push(i);
        continue;
      }
      e.avail++;
    }
    let chosen: number;
    let edge: Edge;
    if (untried.length) {
      chosen = untried.length === 1 ? untried[0]! : rng.pick(untried);
      edge = { power, child: {}, visits: 0, avail: 1, value: 0 };
      edges.set(keys[chosen]!, edge);
      expanded = true;
    } else {
      for (let i = 0; i < keys.length; i++) {
        const e = edges.get(keys[i]!)!;
        const score = e.value / e.visits + opts.c * Math.sqrt(Math.log(e.avail) / e.visits);
        if (score > bestScore) {
          bestScore = score;
          best = e;
          bestIndex = i;
        }
      }
      chosen = bestIndex;
      edge = best!;
    }
    state = game.apply(state, choices[chosen]).state as Json;
    path.push(edge);
    node = edge.child;
  }
  state = rollout(game, rng, state, opts.rollout);
  backpropagate(model, state, path, base, opts.scale);
}

/** Up to `plies` random decisions and chance draws from `state`, stopping at the end of the game. */
function rollout(game: AnyGame, rng: RngStream, state: Json, plies: number): Json {
  for (let i = 0; i < plies; i++) {
    const p = game.pending(state);
    if (p.kind === 'terminal') break;
    const choice = p.kind === 'chance' ? rng.sample(p.outcomes as readonly ChanceOutcome<unknown>[]) : p.options[rng.int(0, p.options.length - 1)];
    state = game.apply(state, choice).state as Json;
  }
  return state;
}

function backpropagate(
  model: BotModel<Json, unknown>,
  leaf: Json,
  path: readonly Edge[],
  base: (power: string) => number,
  scale: number,
): void {
  const values = new Map<string, number>();
  for (const e of path) {
    let v = values.get(e.power);
    if (v === undefined) {
      v = 1 / (1 + Math.exp(-(finite(model.evaluate(leaf, e.power)) - base(e.power)) / scale));
      values.set(e.power, v);
    }
    e.visits++;
    e.value += v;
  }
}

/** A NaN or infinite evaluation counts as a very bad one rather than poisoning the averages. */
function finite(v: number): number {
  return Number.isFinite(v) ? v : v === Infinity ? 1e9 : -1e9;
}
