/**
 * The hex layer's hot searches on a map of Empires & Alliances' size: a synthetic `rrcc-skewed` map of
 * 63 x 62 = 3,906 hexes (two sea columns, terrain, rivers, a rail grid), 300 units a side placed
 * deterministically near the border between the two countries. Cases:
 *   - a side's ZOC (`zocMask` over its 300 units);
 *   - one unit's reach at 4 and 8 MP (`ReachSearch`: terrain and river costs, enemy-occupied hexes
 *     closed, stopping in enemy ZOC), cycling over the side's units;
 *   - a side's supply (`SupplySearch`: rail from its 63 edge sources, then 4 hexes overland, blocked by
 *     enemy ZOC where no friendly unit is), then each unit's verdict; also with the enemy ZOC and the
 *     blocking masks rebuilt inside the timed op, as a game that moved a unit would;
 *   - a reference: a plain breadth-first search over every hex with no rules, to compare machines by;
 *   - the same 4 and 8 MP reach written naively over string ids (Map/Set keyed by "RRCC", neighbours
 *     by parsing ids), for the ratio of the two. Both searches are checked to agree before timing.
 *
 *   npm run bench:hexmap
 *   BENCH_ROUNDS=3 npm run bench:hexmap    # quicker
 *
 * Environment: BENCH_ROUNDS (default 15: each round times every case over a batch of ops, cases
 * interleaved; the median round's µs per op is reported), BENCH_MS (target ms per batch, default 40),
 * BENCH_RESULTS (markdown file to update, default bench/RESULTS.md; `none` to skip), BENCH_OUT_DIR
 * (default bench/out; writes hexmap-latest.json there).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hash32, loadHexMap, ReachSearch, SideFeature, SupplySearch, syntheticMapJson, zocMask } from '@salient/hexmap';
import { envInt, machine, median, updateResultsBlock } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));
const UNITS = 300;
const SEED = 1;

// --- the map and the units -----------------------------------------------------------------------

const map = loadHexMap(syntheticMapJson({ seed: SEED }), { source: 'synthetic' });
const [colMin, colMax] = map.grid.cols;
const midCol = Math.floor((colMin + 2 + colMax) / 2);
const AA = map.countryIndex('AA');
const BB = map.countryIndex('BB');

/** `UNITS` distinct land hexes of `country` within `depth` columns of the border, in a seeded order. */
function place(country: number, depth: number, salt: number): Int32Array {
  const near = [...map.hexes].filter((h) => map.country[h] === country && Math.abs(map.grid.col(h) - midCol - 0.5) <= depth);
  near.sort((a, b) => hash32(salt ^ a) - hash32(salt ^ b) || a - b);
  return Int32Array.from(near.slice(0, UNITS));
}
const west = place(AA, 12, 0x5eed);
const east = place(BB, 12, 0xea57);

const TERRAIN_MP: Record<string, number> = { clear: 1, forest: 2, mountain: 3, swamp: 3, sea: Infinity };
const terrainMp = Float64Array.from(map.terrains, (t) => TERRAIN_MP[t] ?? Infinity);

const occupiedBy = (units: Int32Array) => {
  const m = new Uint8Array(map.size);
  for (const h of units) m[h] = 1;
  return m;
};
const westOcc = occupiedBy(west);
const eastOcc = occupiedBy(east);
const eastZoc = zocMask(map, east);

/** West's movement rules: terrain MP, +1 across a river, +2 across a major one; no entering East's hexes. */
const westMove = {
  enterCost(_from: number, to: number, side: number): number {
    if (eastOcc[to] === 1) return Infinity;
    const f = map.sideFeatures[side] as number;
    return (terrainMp[map.terrain[to] as number] as number) + (f & SideFeature.MAJOR_RIVER ? 2 : f & SideFeature.RIVER ? 1 : 0);
  },
  stopsIn: eastZoc,
};

// West's supply: sources on its western edge; overland blocked by East's units and by East's ZOC where
// no West unit is; rail also closed in East's country.
const sources = Int32Array.from([...map.hexes].filter((h) => map.grid.col(h) === colMax));
const blocked = new Uint8Array(map.size);
const railBlocked = new Uint8Array(map.size);
const inEast = Uint8Array.from(map.country, (c) => (c === BB ? 1 : 0));
/** The blocking masks from East's ZOC: a few byte operations per hex over the whole index space. */
function buildSupplyMasks(zoc: Uint8Array): void {
  for (let h = 0; h < map.size; h++) {
    const b = (eastOcc[h] as number) | ((zoc[h] as number) & ((westOcc[h] as number) ^ 1));
    blocked[h] = b;
    railBlocked[h] = b | (inEast[h] as number);
  }
}
buildSupplyMasks(eastZoc);
const supplyRules = { sources, limit: 4, blocked, rail: { blocked: railBlocked } };

// --- the naive reach: the same search over string ids ----------------------------------------------

const idOf = Array.from({ length: map.size }, (_, h) => (map.onMap[h] ? map.id(h) : ''));
const terrainById = new Map<string, string>();
const occupiedIds = new Set<string>();
const zocIds = new Set<string>();
const sideFeaturesById = new Map<string, number>();
for (const h of map.hexes) {
  const id = idOf[h] as string;
  terrainById.set(id, map.terrainName(h) as string);
  if (eastOcc[h]) occupiedIds.add(id);
  if (eastZoc[h]) zocIds.add(id);
  for (let d = 0; d < 6; d++) {
    const nb = map.neighbours[h * 6 + d] as number;
    if (nb >= 0) sideFeaturesById.set(`${id}|${idOf[nb]}`, map.sideFeatures[map.grid.side(h, d)] as number);
  }
}
const STEPS: ReadonlyArray<readonly [number, number]> = [
  [0, -1],
  [-1, -1],
  [-1, 0],
  [0, 1],
  [1, 1],
  [1, 0],
];
function naiveNeighbours(id: string): string[] {
  const r = Number(id.slice(0, 2));
  const c = Number(id.slice(2));
  const out: string[] = [];
  for (const [dr, dc] of STEPS) {
    const nid = String(r + dr).padStart(2, '0') + String(c + dc).padStart(2, '0');
    if (terrainById.has(nid)) out.push(nid);
  }
  return out;
}
/** Dijkstra with a binary heap of [cost, id] pairs, costs in a Map keyed by id. */
function naiveReach(start: string, mp: number): Map<string, number> {
  const cost = new Map<string, number>([[start, 0]]);
  const done = new Set<string>();
  const heap: Array<[number, string]> = [[0, start]];
  const push = (e: [number, string]) => {
    heap.push(e);
    for (let i = heap.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if ((heap[p] as [number, string])[0] <= e[0]) break;
      [heap[p], heap[i]] = [heap[i] as [number, string], heap[p] as [number, string]];
      i = p;
    }
  };
  const pop = (): [number, string] => {
    const top = heap[0] as [number, string];
    const last = heap.pop() as [number, string];
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && (heap[l] as [number, string])[0] < (heap[m] as [number, string])[0]) m = l;
        if (r < heap.length && (heap[r] as [number, string])[0] < (heap[m] as [number, string])[0]) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i] as [number, string], heap[m] as [number, string]];
        i = m;
      }
    }
    return top;
  };
  while (heap.length) {
    const [k, id] = pop();
    if (done.has(id) || k > (cost.get(id) as number)) continue;
    done.add(id);
    if (id !== start && zocIds.has(id)) continue;
    for (const nid of naiveNeighbours(id)) {
      if (done.has(nid) || occupiedIds.has(nid)) continue;
      const f = sideFeaturesById.get(`${id}|${nid}`) ?? 0;
      const nk = k + (TERRAIN_MP[terrainById.get(nid) as string] ?? Infinity) + (f & SideFeature.MAJOR_RIVER ? 2 : f & SideFeature.RIVER ? 1 : 0);
      if (nk > mp || nk >= (cost.get(nid) ?? Infinity)) continue;
      cost.set(nid, nk);
      push([nk, nid]);
    }
  }
  return cost;
}

// --- the machine reference: a plain breadth-first search over the whole map, no rules ---------------

const plainDist = new Int32Array(map.size);
const plainQueue = new Int32Array(map.size);
/** Every on-map hex from `start`, as tight as typed-array code gets; its time calibrates the others. */
function plainBfs(start: number): number {
  plainDist.fill(-1);
  plainDist[start] = 0;
  plainQueue[0] = start;
  const nbs = map.neighbours;
  let tail = 1;
  for (let head = 0; head < tail; head++) {
    const h = plainQueue[head] as number;
    const next = (plainDist[h] as number) + 1;
    for (let d = 0; d < 6; d++) {
      const nb = nbs[h * 6 + d] as number;
      if (nb < 0 || plainDist[nb] !== -1) continue;
      plainDist[nb] = next;
      plainQueue[tail++] = nb;
    }
  }
  return tail;
}

// --- the cases -------------------------------------------------------------------------------------

const reach = new ReachSearch(map);
const supply = new SupplySearch(map);
const zocOut = new Uint8Array(map.size);
let sink = 0;
let unit = 0;
const nextUnit = () => west[unit++ % UNITS] as number;

interface Case {
  label: string;
  target: string;
  op: () => void;
}
const cases: Case[] = [
  { label: 'reference: plain breadth-first search over every hex, no rules', target: '', op: () => void (sink += plainBfs(west[unit++ % UNITS] as number)) },
  { label: "a side's ZOC (300 units, `zocMask`)", target: '~5 µs', op: () => void (sink += zocMask(map, east, { out: zocOut })[0] as number) },
  { label: "one unit's reach, 4 MP (`ReachSearch`)", target: '2–60 µs', op: () => void (sink += reach.run(nextUnit(), 4, westMove).count) },
  { label: "one unit's reach, 8 MP (`ReachSearch`)", target: '2–60 µs', op: () => void (sink += reach.run(nextUnit(), 8, westMove).count) },
  {
    label: "a side's supply (rail + 4 hexes overland, 300 units' verdicts)",
    target: '~65 µs',
    op: () => {
      supply.run(supplyRules);
      for (let i = 0; i < UNITS; i++) sink += supply.dist[west[i] as number] as number;
    },
  },
  {
    label: "a side's supply with the enemy ZOC and blocking masks rebuilt",
    target: '~65 µs',
    op: () => {
      buildSupplyMasks(zocMask(map, east, { out: zocOut }));
      supply.run(supplyRules);
      for (let i = 0; i < UNITS; i++) sink += supply.dist[west[i] as number] as number;
    },
  },
  { label: 'one unit\'s reach, 4 MP, naive (string ids, `Map`/`Set`)', target: '', op: () => void (sink += naiveReach(idOf[nextUnit()] as string, 4).size) },
  { label: 'one unit\'s reach, 8 MP, naive (string ids, `Map`/`Set`)', target: '', op: () => void (sink += naiveReach(idOf[nextUnit()] as string, 8).size) },
];

/** The typed-array and the naive reach agree on every unit (costs per hex), so the ratio compares like with like. */
function checkAgreement(): { reached4: number; reached8: number } {
  let r4 = 0;
  let r8 = 0;
  for (const mp of [4, 8]) {
    for (const u of west) {
      reach.run(u, mp, westMove);
      const naive = naiveReach(idOf[u] as string, mp);
      if (naive.size !== reach.count) throw new Error(`reach from ${idOf[u]} at ${mp} MP: ${reach.count} hexes, naive ${naive.size}`);
      for (const [id, c] of naive) if (reach.cost[map.hex(id)] !== c) throw new Error(`reach from ${idOf[u]} at ${mp} MP disagrees at ${id}`);
      if (mp === 4) r4 += reach.count;
      else r8 += reach.count;
    }
  }
  return { reached4: r4 / UNITS, reached8: r8 / UNITS };
}

/** CPU µs (user + system) of this process per op in the last `timeBatch`, beside its wall time. */
let lastCpuUs = 0;

/** Wall µs per op over a batch of `n` ops (and the CPU µs per op in `lastCpuUs`). */
function timeBatch(op: () => void, n: number): number {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) op();
  const wall = ((performance.now() - t0) * 1000) / n;
  const c = process.cpuUsage(c0);
  lastCpuUs = (c.user + c.system) / n;
  return wall;
}

function main(): void {
  const loadAtStart = loadavg();
  const rounds = envInt('BENCH_ROUNDS', 15);
  const batchMs = envInt('BENCH_MS', 40);
  const agree = checkAgreement();
  supply.run(supplyRules);
  let supplied = 0;
  for (const u of west) if (supply.inSupply(u)) supplied++;
  let railHexes = 0;
  for (const h of map.hexes) if (supply.railConnected[h]) railHexes++;
  let zocHexes = 0;
  for (const x of eastZoc) zocHexes += x;

  // Warm up and size each batch to about `batchMs`.
  const sizes = cases.map((c) => {
    let n = 16;
    for (;;) {
      const us = timeBatch(c.op, n);
      if (us * n >= batchMs * 500 || n >= 1 << 20) {
        // A stall (GC, another process) during one batch would shrink every batch: size by the fastest of three.
        const best = Math.min(us, timeBatch(c.op, n), timeBatch(c.op, n));
        return Math.max(16, Math.round((batchMs * 1000) / best));
      }
      n *= 2;
    }
  });
  const perRound: number[][] = cases.map(() => []);
  const cpuPerRound: number[][] = cases.map(() => []);
  for (let r = 0; r < rounds; r++) {
    cases.forEach((c, i) => {
      (perRound[i] as number[]).push(timeBatch(c.op, sizes[i] as number));
      (cpuPerRound[i] as number[]).push(lastCpuUs);
    });
  }
  const rows = cases.map((c, i) => ({
    label: c.label,
    target: c.target,
    ops: (sizes[i] as number) * rounds,
    usPerOp: median(perRound[i] as number[]),
    bestUsPerOp: Math.min(...(perRound[i] as number[])),
    cpuUsPerOp: median(cpuPerRound[i] as number[]),
  }));
  const us = (label: string) => rows.find((r) => r.label.startsWith(label) && !r.label.includes('naive'))?.usPerOp ?? NaN;
  const naive = (label: string) => rows.find((r) => r.label.startsWith(label) && r.label.includes('naive'))?.usPerOp ?? NaN;
  const ratio4 = naive("one unit's reach, 4 MP") / us("one unit's reach, 4 MP");
  const ratio8 = naive("one unit's reach, 8 MP") / us("one unit's reach, 8 MP");
  const refUs = us('reference:');

  const m = machine();
  const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const block = [
    `<!-- bench-hexmap:${m.date}|${m.node}|${m.cpu} -->`,
    `### Hex layer · ${m.date} · Node ${m.node} · ${m.cpu} (nproc ${m.nproc}, ${m.memGB} GB)`,
    '',
    `Synthetic \`rrcc-skewed\` map of ${map.hexCount.toLocaleString('en-US')} hexes (E&A's size; seed ${SEED}), ${UNITS} units a side placed by a seeded hash within 12 columns of the border; ` +
      `East's ZOC covers ${zocHexes.toLocaleString('en-US')} hexes. Reach: terrain MP 1–3, +1/+2 across river/major river, East's hexes closed, stop in East's ZOC; ` +
      `mean hexes reached ${agree.reached4.toFixed(1)} at 4 MP and ${agree.reached8.toFixed(1)} at 8 MP (the naive search agrees hex for hex on all ${UNITS} units). ` +
      `Supply: ${sources.length} sources on West's edge, rail to ${railHexes.toLocaleString('en-US')} hexes, then 4 hexes overland; ${supplied} of ${UNITS} units supplied. ` +
      `One thread; ${rounds} rounds, cases interleaved, each round a batch of about ${batchMs} ms; µs per op is wall time, the median round, with the fastest round ` +
      `and the process's CPU time per op (median round) beside it: on a shared machine those two are the better estimates of unloaded speed. Load average at the start: ${loadAtStart.map((x) => x.toFixed(1)).join(', ')} on ${m.nproc} cores.`,
    '',
    '| case | ops | µs per op (median round) | fastest round | CPU µs per op (median round) | target (issue 28) |',
    '|---|---:|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.label} | ${r.ops.toLocaleString('en-US')} | ${fmt(r.usPerOp)} | ${fmt(r.bestUsPerOp)} | ${fmt(r.cpuUsPerOp)} | ${r.target || '—'} |`),
    '',
    `Naive over typed arrays, same search: ${ratio4.toFixed(1)}× at 4 MP, ${ratio8.toFixed(1)}× at 8 MP. ` +
      `Compare machines (or runs on a loaded one) by the reference row: a side's supply took ${(us("a side's supply (") / refUs).toFixed(2)}× the plain search over all ${map.hexCount.toLocaleString('en-US')} hexes.`,
    '<!-- bench-hexmap:end -->',
  ].join('\n');
  process.stdout.write(block + '\n');
  const outDir = process.env.BENCH_OUT_DIR || join(here, 'out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'hexmap-latest.json'), JSON.stringify({ machine: m, hexes: map.hexCount, units: UNITS, rounds, cases: rows, ratio4, ratio8, ...agree, supplied, sink }, null, 2) + '\n');
  const file = process.env.BENCH_RESULTS || join(here, 'RESULTS.md');
  if (file !== 'none') updateResultsBlock(file, 'bench-hexmap', `${m.date}|${m.node}|${m.cpu}`, block, '# Benchmark results\n');
}

main();
