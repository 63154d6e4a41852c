// The replay viewer: a match's map frame by frame (GET /api/matches/:id/board), with its controls.
import { colour, NEUTRAL } from './colours.js';
import { legend, svg, text, title } from './charts.js';
import { h } from './dom.js';
import { hexView } from './hexmap.js';
import { drawActions, shapesOf, unitPlaces } from './actions.js';
import { asOutline, cells, fitProjection, loadLand, nearestSpacing, pathOf } from './regions.js';
import { zoomable } from './zoom.js';

const WIDTH = 900;
const MIN_HEIGHT = 320;
const MAX_HEIGHT = 560;
/** Sets an attribute only when its value differs (an unchanged write still makes the browser repaint). */
export function setAttr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** Views made on this page, for ids of their clip paths and masks. */
let views = 0;

/** A size for area shapes: smaller where areas crowd (from the typical distance to the nearest neighbour). */
function shapeRadius(points) {
  if (points.length < 2) return 7;
  const nearest = points.map(([x, y], i) => Math.min(...points.map(([u, v], j) => (i === j ? Infinity : Math.hypot(x - u, y - v))))).sort((a, b) => a - b);
  return Math.max(4, Math.min(7, (nearest[Math.floor(nearest.length / 4)] ?? 14) * 0.42));
}

/** Button icons, drawn (the system fonts do not all have the media symbols). */
const ICONS = {
  first: 'M3 2h2v12H3zM14 2v12L6 8z',
  prev: 'M12 2v12L4 8z',
  play: 'M4 2v12l10-6z',
  pause: 'M3 2h4v12H3zM9 2h4v12H9z',
  next: 'M4 2v12l8-6z',
  last: 'M11 2h2v12h-2zM2 2v12l8-6z',
};
const icon = (name) => svg('svg', { viewBox: '0 0 16 16', width: 12, height: 12, class: 'icon', 'aria-hidden': 'true' }, svg('path', { d: ICONS[name], fill: 'currentColor' }));

const approxWidth = (s) => s.length * 5.2;
const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** "Start · …" or "Impulse 3 of 14 · turn 1, impulse 4 · phase / step" */
export const frameLabel = (f, i, n) => `${i === 0 ? 'Start' : `Impulse ${i} of ${n - 1}`} · turn ${f.position.turn}, impulse ${f.position.impulse} · ${f.position.phase} / ${f.position.step}`;

/**
 * An area map (Blitz!): areas as circles (land) and squares (sea) at their projected centres, links
 * between them, names where they fit, a counter per power in an area. Returns the view the replay
 * viewer shows: { map, bar, key, show(frame, before, events) }: the map as `frame` has it (ringing what
 * changed since `before`), with what `events` did drawn on it.
 */
function areaView(board) {
  const areas = board.layout.areas;
  const byId = new Map(areas.map((a) => [a.id, a]));
  const frames = board.frames;
  const inPlay = new Set(board.sides.flatMap((s) => s.powers));
  // Where the game is played: areas a scenario power holds or has units in, in any frame.
  const active = new Set();
  for (const f of frames) {
    for (const [area, owner] of Object.entries(f.control)) if (inPlay.has(owner)) active.add(area);
    for (const area of Object.keys(f.units)) active.add(area);
  }
  const focus = areas.filter((a) => active.has(a.id));
  let fit = focus.length >= 3 && focus.length < areas.length ? 'play' : 'all';
  let at = new Map();
  let mapHeight = MAX_HEIGHT;
  /** Radius of a land circle (and half the side of a sea square) in the current layout. */
  let radius = 7;
  // The most powers with units in one area, by area, over the match: room kept for their counters.
  const stacks = new Map();
  for (const f of frames) for (const [area, units] of Object.entries(f.units)) stacks.set(area, Math.max(stacks.get(area) ?? 0, new Set(units.map((u) => u.power)).size));

  const map = svg('svg', { viewBox: `0 0 ${WIDTH} ${MAX_HEIGHT}`, class: 'board', 'data-testid': 'board', role: 'img', 'aria-label': `Map of match ${board.matchId}, ${board.game} scenario ${board.scenario}` });
  const linkLayer = svg('g', { class: 'links', 'aria-hidden': 'true' });
  const areaLayer = svg('g', { class: 'areas' });
  const labelLayer = svg('g', { class: 'area-labels', 'aria-hidden': 'true' });
  const unitLayer = svg('g', { class: 'units' });
  // Zoom (zoom.js) scales the links; areas, names and counters keep their size and move to their
  // zoomed places, so the map stays readable from the whole world down to one area.
  const content = svg('g', { class: 'zoom-content' });
  const defs = svg('defs');
  const regionLayer = svg('g', { class: 'regions', 'aria-hidden': 'true' });
  content.append(regionLayer, linkLayer);
  const actionLayer = svg('g', { class: 'actions', 'data-testid': 'actions' });
  // Two stacked SVGs, each composited apart: the regions and links below (they change when an area
  // changes hands, or with the zoom), the areas, names, counters and what a step did above. A step then
  // re-rasters the upper one where it changed, not the regions under it (bench:viewer, Blitz! full game:
  // every step re-rastered the whole map with the page, ~17 ms of raster CPU a step).
  const under = svg('svg', { viewBox: `0 0 ${WIDTH} ${MAX_HEIGHT}`, class: 'board board-under', 'data-testid': 'board-under', 'aria-hidden': 'true' });
  under.append(defs, content);
  map.classList.add('board-over');
  map.append(areaLayer, labelLayer, unitLayer);
  // What a stop did, in an SVG of its own over the map (composited apart): an impulse draws dozens of
  // moves across the map, which re-rastered the areas, names and counters under them with the arrows.
  const above = svg('svg', { viewBox: `0 0 ${WIDTH} ${MAX_HEIGHT}`, class: 'board board-actions', 'aria-hidden': 'true' }, actionLayer);
  const uid = `map${++views}`;
  /** The land regions drawn (by area id), filled by their holder in show(). */
  let regions = new Map();
  let generation = 0;
  const shapes = new Map();
  let zt = { k: 1, x: 0, y: 0 };
  /** Where area `id` is drawn at the current zoom. */
  const P = (id) => {
    const p = at.get(id);
    return p && [zt.x + zt.k * p[0], zt.y + zt.k * p[1]];
  };

  /** Lays the map out for the current fit: positions, links, area shapes and the names that fit. */
  function layout() {
    const { height, project, projection } = fitProjection((fit === 'play' ? focus : areas).map((a) => [a.lon, a.lat]), WIDTH, fit === 'play' ? 40 : 24, MIN_HEIGHT, MAX_HEIGHT);
    mapHeight = height;
    for (const x of [map, under, above]) x.setAttribute('viewBox', `0 0 ${WIDTH} ${mapHeight}`);
    at = new Map(areas.map((a) => [a.id, project(a.lon, a.lat)]));
    const visible = [...at.values()].filter(([x, y]) => x >= 0 && x <= WIDTH && y >= 0 && y <= mapHeight);
    radius = shapeRadius(visible);
    drawLinks(project, () => true);
    // The regions of the last fit no longer match the positions: gone until this fit's are drawn.
    regionLayer.replaceChildren();
    map.removeAttribute('data-regions');
    map.setAttribute('data-fit', fit);
    drawRegions(project, projection, ++generation);
    areaLayer.replaceChildren();
    for (const a of areas) {
      const shape =
        a.kind === 'sea'
          ? svg('rect', { width: radius * 1.7, height: radius * 1.7, rx: radius / 2.5, class: 'sea' })
          : svg('circle', { r: radius, class: 'land' });
      shape.setAttribute('data-testid', 'area');
      shape.setAttribute('data-area', a.id);
      shape.setAttribute('data-kind', a.kind);
      const tip = title(a.name);
      shape.append(tip);
      shapes.set(a.id, { shape, tip, area: a });
      areaLayer.append(shape);
    }
    place();
  }

  /** The links between areas; `shown(a, b)` picks which (all of them until the regions show the obvious ones). */
  function drawLinks(project, shown) {
    linkLayer.replaceChildren();
    for (const [from, to] of board.layout.links) {
      if (!shown(from, to)) continue;
      const a = byId.get(from);
      const b = byId.get(to);
      if (!a || !b) continue;
      // A link across the date line leaves by one edge of the map and comes back by the other.
      const wrap = Math.abs(a.lon - b.lon) > 180 ? Math.sign(a.lon - b.lon) * 360 : 0;
      // (The projection folds longitudes into [-180, 180], so the far end is moved by the map's width.)
      const shift = wrap && (Math.sign(wrap) * (project(179.9999, 0)[0] - project(-179.9999, 0)[0]));
      const [p, q] = [at.get(from), at.get(to)];
      linkLayer.append(svg('line', { x1: p[0], y1: p[1], x2: q[0] + shift, y2: q[1] }));
      if (wrap) linkLayer.append(svg('line', { x1: p[0] - shift, y1: p[1], x2: q[0], y2: q[1] }));
    }
  }

  /**
   * The areas as regions (regions.js), once the land outlines have come: land areas on the land, sea
   * areas on the sea, each the part nearer its position than any other area of its kind and within a
   * reach of it (land outside every reach stays plain). Then only the links the regions do not show
   * are drawn: between areas of a kind whose regions do not touch (straits, routes across water).
   */
  async function drawRegions(project, projection, gen) {
    let outline;
    try {
      outline = await loadLand(fit === 'all' ? '110m' : '50m');
    } catch {
      return; // without the outlines the map keeps its links and symbols
    }
    if (gen !== generation) return;
    const box = [0, 0, WIDTH, mapHeight];
    const sitesOf = (kind) => areas.filter((a) => a.kind === kind).map((a) => ({ id: a.id, x: at.get(a.id)[0], y: at.get(a.id)[1] }));
    const [landSites, seaSites] = [sitesOf('land'), sitesOf('sea')];
    const reach = (sites, times) => times * (nearestSpacing(sites.filter((s) => s.x >= 0 && s.x <= WIDTH && s.y >= 0 && s.y <= mapHeight).map((s) => [s.x, s.y])) || 40);
    const [landCells, seaCells] = [cells(landSites, box, reach(landSites, 2.4)), cells(seaSites, box, reach(seaSites, 3))];
    const landD = pathOf(projection.clipExtent([[-2, -2], [WIDTH + 2, mapHeight + 2]]), outline);
    // Painted cheaply (one clip path, no masks): the sea regions, the land over them, the land regions clipped to the land.
    defs.replaceChildren(svg('clipPath', { id: `${uid}-land` }, svg('path', { d: landD })));
    // An area whose pack gives its outline is drawn as given, over the generated ones.
    const region = (a, cellsOf) =>
      a.shape
        ? svg('path', { d: pathOf(projection, asOutline(a.shape)), class: `region ${a.kind}-region`, 'data-testid': 'region', 'data-area': a.id, 'data-kind': a.kind, 'data-source': 'pack' })
        : svg('path', { d: cellsOf.path(a.id), class: `region ${a.kind}-region`, 'data-testid': 'region', 'data-area': a.id, 'data-kind': a.kind, 'data-source': 'generated' });
    const byShape = (x, y) => Number(Boolean(x[1].getAttribute('data-source') === 'pack')) - Number(Boolean(y[1].getAttribute('data-source') === 'pack'));
    const seaRegions = areas.filter((a) => a.kind === 'sea').map((a) => [a.id, region(a, seaCells)]).sort(byShape);
    regions = new Map(areas.filter((a) => a.kind === 'land').map((a) => [a.id, region(a, landCells)]).sort(byShape));
    const landGroup = svg('g', { 'clip-path': `url(#${uid}-land)` }, ...[...regions.values()].filter((r) => r.getAttribute('data-source') !== 'pack'));
    const packLand = svg('g', {}, ...[...regions.values()].filter((r) => r.getAttribute('data-source') === 'pack'));
    regionLayer.replaceChildren(svg('g', {}, ...seaRegions.map(([, r]) => r)), svg('path', { d: landD, class: 'land-base' }), landGroup, packLand);
    const kindOf = (id) => byId.get(id)?.kind;
    drawLinks(project, (a, b) => kindOf(a) !== kindOf(b) ? false : kindOf(a) === 'land' ? !landCells.touches(a, b) : !seaCells.touches(a, b));
    map.setAttribute('data-regions', String(regions.size + seaSites.length));
    zoomer.redrawOverview();
    redraw();
  }

  /** Puts the area shapes and their names where the current zoom has them. */
  function place() {
    for (const { shape, area } of shapes.values()) {
      const [x, y] = P(area.id);
      if (area.kind === 'sea') {
        shape.setAttribute('x', (x - radius * 0.85).toFixed(1));
        shape.setAttribute('y', (y - radius * 0.85).toFixed(1));
      } else {
        shape.setAttribute('cx', x.toFixed(1));
        shape.setAttribute('cy', y.toFixed(1));
      }
    }
    // Names where they fit: areas in play first, each below, beside or above its shape, never over another name or shape.
    labelLayer.replaceChildren();
    const taken = areas.flatMap((a) => {
      const [x, y] = P(a.id);
      const n = stacks.get(a.id) ?? 0;
      return [{ x: x - radius - 1, y: y - radius - 1, w: 2 * radius + 2, h: 2 * radius + 2 }, ...(n ? [{ x: x + radius - 1, y: y - radius - 11, w: n * 15, h: 11 }] : [])];
    });
    const ordered = [...areas].sort((a, b) => Number(active.has(b.id)) - Number(active.has(a.id)));
    for (const a of ordered) {
      const [x, y] = P(a.id);
      if (x < 0 || x > WIDTH || y < 0 || y > mapHeight) continue;
      const w = approxWidth(a.name);
      const spots = [
        { x: x - w / 2, y: y + radius + 1, anchor: 'middle', tx: x, ty: y + radius + 9 },
        { x: x + radius + 3, y: y - 4, anchor: 'start', tx: x + radius + 3, ty: y + 4 },
        { x: x - radius - 3 - w, y: y - 4, anchor: 'end', tx: x - radius - 3, ty: y + 4 },
        { x: x - w / 2, y: y - radius - 11, anchor: 'middle', tx: x, ty: y - radius - 3 },
      ].map((s) => ({ ...s, w, h: 9 }));
      const spot = spots.find((s) => s.x >= 0 && s.x + s.w <= WIDTH && s.y >= 0 && s.y + s.h <= mapHeight && !taken.some((t) => overlaps(s, t)));
      if (!spot) continue;
      taken.push(spot);
      labelLayer.append(text(spot.tx, spot.ty, a.name, { 'text-anchor': spot.anchor, class: a.kind === 'sea' ? 'sea-name' : 'land-name' }));
    }
  }

  const fitGroup = h('div', { class: 'segmented', role: 'group', 'aria-label': 'Zoom' });
  const fitButtons = [
    ['play', 'Where it is played', 'fit-play'],
    ['all', 'Whole map', 'fit-all'],
  ].map(([mode, text, testid]) => {
    const b = h('button', { type: 'button', 'data-testid': testid, 'aria-pressed': String(fit === mode), disabled: mode === 'play' && focus.length < 3 }, text);
    b.addEventListener('click', () => {
      fit = mode;
      for (const [m, x] of fitButtons) x.setAttribute('aria-pressed', String(m === fit));
      layout();
      redraw();
      zoomer.reset();
    });
    fitGroup.append(b);
    return [mode, b];
  });
  let shown = [frames[0], undefined, []];
  /** The counters drawn, by area: what they show (and where) and their group. */
  const counters = new Map();
  const redraw = () => show(...shown);
  function show(f, before, events = []) {
    shown = [f, before, events];
    const places = unitPlaces(before ?? f);
    drawActions(actionLayer, events.flatMap((e) => shapesOf(e, places)), P, 1.5, { svg, text });
    // Only what differs from the map drawn is touched, so a step repaints only where it changed.
    for (const { shape, tip, area } of shapes.values()) {
      const owner = f.control[area.id];
      const units = f.units[area.id] ?? [];
      const changed = Boolean(before && before.control[area.id] !== owner);
      const fill = owner && owner !== 'neutral' ? colour(owner) : NEUTRAL;
      if (area.kind === 'land') {
        setAttr(shape, 'fill', fill);
        setAttr(shape, 'data-owner', owner ?? '');
        if (shape.classList.contains('changed') !== changed) shape.classList.toggle('changed', changed);
      }
      const about = `${area.name}${area.kind === 'sea' ? ' (sea)' : owner ? `: ${owner === 'neutral' ? 'neutral' : `held by ${owner}`}` : ''}${units.map((u) => `\n${u.power} ${u.label}`).join('')}`;
      if (tip.textContent !== about) tip.textContent = about;
      const region = regions.get(area.id);
      if (region) {
        setAttr(region, 'fill', fill);
        if (region.classList.contains('changed') !== changed) region.classList.toggle('changed', changed);
      }
    }
    const seen = new Set();
    for (const [area, units] of Object.entries(f.units)) {
      const p = P(area);
      if (!p) continue;
      const byPower = new Map();
      for (const u of units) byPower.set(u.power, [...(byPower.get(u.power) ?? []), u]);
      const key = `${p[0].toFixed(1)},${p[1].toFixed(1)},${radius}|${[...byPower].map(([power, us]) => `${power}:${us.map((u) => u.label).join(',')}`).join('|')}`;
      seen.add(area);
      const have = counters.get(area);
      if (have?.key === key) continue;
      const g = svg('g', { 'data-area': area });
      [...byPower].forEach(([power, us], j) => {
        const x = p[0] + radius - 1 + j * 15;
        const y = p[1] - radius - 10;
        g.append(
          svg(
            'g',
            { 'data-testid': 'unit', 'data-area': area, 'data-power': power, 'data-count': us.length },
            svg('rect', { x, y, width: 14, height: 11, rx: 2, fill: colour(power), class: 'counter' }),
            text(x + 7, y + 8.5, String(us.length), { 'text-anchor': 'middle', class: 'counter-n' }),
            title(`${byId.get(area)?.name ?? area}: ${us.map((u) => `${power} ${u.label}`).join(', ')}`),
          ),
        );
      });
      if (have) have.g.replaceWith(g);
      else unitLayer.append(g);
      counters.set(area, { key, g });
    }
    for (const [area, c] of counters) {
      if (seen.has(area)) continue;
      c.g.remove();
      counters.delete(area);
    }
  }

  const powerItems = board.sides.flatMap((s) => s.powers.map((p) => ({ name: p, colour: colour(p), note: `(${s.name})` })));
  layout();
  const zoomer = zoomable(map, content, {
    // The overview: the land as drawn and a dot per area in play.
    drawOverview: (g) => {
      const land = regionLayer.querySelector('.land-base');
      if (land) g.append(svg('path', { d: land.getAttribute('d'), class: 'overview-land' }));
      for (const a of focus.length ? focus : areas) {
        const p = at.get(a.id);
        if (p) g.append(svg('circle', { cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: 4, class: 'overview-area' }));
      }
    },
    onZoom: (t) => {
      zt = { k: t.k, x: t.x, y: t.y };
      place();
      redraw();
    },
  });
  return {
    map,
    under,
    above,
    overview: zoomer.overview,
    stop: zoomer.stop,
    bar: [legend([...powerItems, { name: 'neutral', colour: NEUTRAL }]), fitGroup, zoomer.bar],
    key: `Each land area is tinted by who holds it (its circle ringed when it changed hands this impulse); squares mark sea zones; a counter gives the units of a power in the area; thin lines join areas that border each other across water or distance. Hover for names and units. ${
      areas.every((a) => a.shape)
        ? 'The area outlines are the pack\'s own.'
        : `${areas.some((a) => a.shape) ? 'Areas whose pack gives an outline are drawn with it; the others are' : 'The area shapes are'} generated from the areas\' positions on Natural Earth land (the part of the land nearer to each area than to any other): an approximation, not the printed map.`
    }`,
    show,
  };
}

/**
 * Events put in the list when a stop is shown, and how many more each time the list is scrolled near
 * its end. An impulse can have a hundred events, of which the list shows about a dozen; building, laying
 * out and painting all of them was the largest part of an impulse frame (bench:viewer traces, Blitz!
 * full game, impulse mode, mean frame CPU at load ~10: 32-35 ms, 18-20 ms with the list hidden). 30
 * items reach past the list's bottom edge and the observer's margin, so the rest is not asked for at once.
 */
const FIRST_EVENTS = 30;
const MORE_EVENTS = 60;

/** Playing speeds: milliseconds a stop is shown. */
const SPEEDS = [
  ['0.5×', 1000],
  ['1×', 500],
  ['2×', 250],
  ['4×', 120],
  ['8×', 50],
];

/**
 * A match's timeline, from the board reply: the impulse frames (whole maps) and the steps between them
 * (each with what it changed). mapAt(j) is the map after step j (-1: the start); it starts from the
 * impulse frame the step comes after and applies the changes of the steps since.
 */
function timeline(board) {
  const frames = board.frames;
  const steps = board.steps ?? [];
  /** Index of the first step after each frame. */
  const firstAfter = [];
  steps.forEach((s, j) => {
    if (firstAfter[s.frame] === undefined) firstAfter[s.frame] = j;
  });
  /** The last step of each impulse (that ends frame k + 1). */
  const impulseEnd = frames.slice(1).map((_, k) => {
    let j = -1;
    steps.forEach((s, x) => s.frame === k && (j = x));
    return j;
  });
  const cache = new Map();
  function mapAt(j) {
    if (j < 0 || !steps.length) return frames[0];
    if (cache.has(j)) return cache.get(j);
    const k = steps[j].frame;
    const m = { control: { ...frames[k].control }, units: { ...frames[k].units }, markers: { ...(frames[k].markers ?? {}) } };
    for (let x = firstAfter[k]; x <= j; x++) {
      for (const key of ['control', 'units', 'markers']) {
        for (const [id, v] of Object.entries(steps[x][key] ?? {})) {
          if (v === null) delete m[key][id];
          else m[key][id] = v;
        }
      }
    }
    if (cache.size > 64) cache.clear();
    cache.set(j, m);
    return m;
  }
  return { frames, steps, impulseEnd, mapAt };
}

/**
 * Draws `board` into `root` with its controls, and `below` under the frame's label: an area map, or a
 * hex map when the layout has one (hexmap.js). Three ways through the match: by impulse (the map at
 * each impulse's end with all its events), by step (each decision and die roll of the log, with who
 * chose what) and by event (each event in turn); what the shown step or impulse did is drawn on the map
 * (moves as paths, attacks as arrows with odds, die and result). The label says where the game stands
 * after what is shown. onFrame(i, frame) is told of every impulse frame reached (i: the impulses
 * completed, 0 at the start). Returns { show(i), stop() }: show(i) goes to impulse frame i; stop() ends
 * playing and lets go of the keyboard.
 */
export function replayViewer(root, board, { onFrame = () => {}, below = [] } = {}) {
  const tl = timeline(board);
  const { frames, steps } = tl;
  const view = board.layout.hex ? hexView(board) : areaView(board);
  const controls = h('div', { class: 'controls', role: 'group', 'aria-label': 'Replay controls' });
  const button = (content, testid, hint) => {
    const b = h('button', { type: 'button', 'data-testid': testid, title: hint, 'aria-label': hint }, content);
    controls.append(b);
    return b;
  };
  const first = button(icon('first'), 'step-first', 'Start: the scenario as set up (Home)');
  const prev = button(icon('prev'), 'step-prev', 'Back (←)');
  const play = button([icon('play'), ' Play'], 'play', 'Play (space)');
  const next = button(icon('next'), 'step-next', 'Forward (→)');
  const last = button(icon('last'), 'step-last', 'The end of the match (End)');
  play.classList.add('primary');
  const slider = h('input', { type: 'range', min: 0, max: 0, value: 0, step: 1, 'aria-label': 'Position in the match', 'data-testid': 'slider' });
  controls.append(slider);
  const label = h('div', { class: 'frame-label', 'data-testid': 'frame-label', 'aria-live': 'polite' });
  const chose = h('div', { class: 'muted small', 'data-testid': 'step-choice' });
  const events = h('ol', { class: 'events', 'data-testid': 'events', 'aria-label': 'Events shown' });
  const eventsTitle = h('h3', {}, 'Events of this impulse');

  // The stops of each mode: [frame index] for impulses; [step index] for steps; [step, event] for events.
  const stopsOf = {
    impulse: frames.map((_, i) => ({ frame: i, step: i === 0 ? -1 : tl.impulseEnd[i - 1] })),
    step: [{ step: -1 }, ...steps.map((_, j) => ({ step: j }))],
    event: [{ step: -1 }, ...steps.flatMap((s, j) => s.events.map((_, e) => ({ step: j, event: e })))],
  };
  const modeGroup = h('div', { class: 'segmented', role: 'group', 'aria-label': 'Step through the match by' });
  let mode = 'impulse';
  const modeButtons = [
    ['impulse', 'Impulse', 'Each impulse (or phase) at once'],
    ['step', 'Step', 'Each decision and die roll of the log'],
    ['event', 'Event', 'Each event in turn'],
  ].map(([m, text, hint]) => {
    const b = h('button', { type: 'button', 'data-testid': `mode-${m}`, title: hint, 'aria-pressed': String(m === mode), disabled: m !== 'impulse' && !steps.length }, text);
    b.addEventListener('click', () => setMode(m));
    modeGroup.append(b);
    return [m, b];
  });
  const speed = h('select', { 'aria-label': 'Playing speed', 'data-testid': 'speed' }, SPEEDS.map(([name, ms]) => h('option', { value: String(ms), selected: ms === 500 }, name)));
  speed.addEventListener('change', () => {
    if (timer) {
      pause();
      toggle();
    }
  });

  let i = 0; // index into the current mode's stops
  const stops = () => stopsOf[mode];
  /** The step index a stop stands at (-1 the start). */
  const stepOf = (s) => s.step ?? -1;
  /** Impulses completed at step j. */
  const impulsesAt = (j) => (j < 0 ? 0 : tl.impulseEnd.filter((e) => e >= 0 && e <= j).length);

  // The event list: the first items of a stop at once, the rest as the list is scrolled to them.
  /** Makers of the items not yet in the list, in order. */
  let pending = [];
  const more = h('li', { class: 'muted more', 'data-testid': 'events-more' });
  const nearEnd = typeof IntersectionObserver === 'function' ? new IntersectionObserver((seen) => seen.some((x) => x.isIntersecting) && extend(), { root: events, rootMargin: '0px 0px 300px 0px' }) : undefined;
  /** Puts the next items in the list, before the line that says how many are left (gone when none are). */
  function extend(n = MORE_EVENTS) {
    if (!pending.length) return;
    more.before(...pending.splice(0, n).map((make) => make()));
    if (!pending.length) return more.remove();
    more.textContent = `${pending.length} more: scroll down for them`;
    // Observed afresh, so that a line still in reach after the items came in brings the next ones.
    nearEnd?.unobserve(more);
    nearEnd?.observe(more);
  }
  // A stop's list starts at its top. Whether the list is scrolled is noted as it scrolls, so that a stop
  // shown with the list at its top neither reads nor writes its scroll position (either forces a layout).
  let listScrolled = false;
  events.addEventListener('scroll', () => (listScrolled = events.scrollTop > 0), { passive: true });
  /** Item makers by stop (`mode index`), each making its item once: back at a stop, its items are the ones made before. */
  const madeItems = new Map();
  const once = (make) => {
    let node;
    return () => (node ??= make());
  };
  /** Shows the items `makers` make: the first FIRST_EVENTS of them (at least `atLeast`), the rest when scrolled to (all at once without IntersectionObserver). */
  function fillEvents(key, makers, atLeast = 0) {
    if (!madeItems.has(key)) {
      // The last 200 stops shown keep their items.
      if (madeItems.size >= 200) madeItems.delete(madeItems.keys().next().value);
      madeItems.set(key, makers.map(once));
    }
    pending = [...madeItems.get(key)];
    events.replaceChildren(more);
    extend(nearEnd ? Math.max(FIRST_EVENTS, atLeast) : makers.length);
  }

  function show(k) {
    // Before anything is written, while the layout is still clean.
    if (listScrolled) {
      events.scrollTop = 0;
      listScrolled = false;
    }
    const list = stops();
    i = Math.max(0, Math.min(list.length - 1, k));
    const stop = list[i];
    const j = stepOf(stop);
    slider.max = String(list.length - 1);
    slider.value = String(i);
    first.disabled = prev.disabled = i === 0;
    next.disabled = last.disabled = i === list.length - 1;
    // Items are made when they go into the list (see `list`).
    const item = (e, current) => () =>
      h('li', { 'data-type': e.type, 'data-power': e.power, 'aria-current': String(Boolean(current)) }, e.power ? h('span', { class: 'chip', style: `--c:${colour(e.power)}` }, e.power) : null, h('span', { class: 'event-text' }, e.text), h('span', { class: 'event-type' }, e.type));
    let shownEvents;
    if (mode === 'impulse') {
      const f = frames[stop.frame];
      const drawn = stop.frame > 0 && steps.length ? steps.filter((s) => s.frame === stop.frame - 1).flatMap((s) => s.events) : [];
      view.show(f, frames[stop.frame - 1], drawn);
      label.textContent = frameLabel(f, stop.frame, frames.length);
      chose.textContent = '';
      shownEvents = f.events.map((e) => item(e, false));
      eventsTitle.textContent = 'Events of this impulse';
      if (!f.events.length) shownEvents = [() => h('li', { class: 'muted empty' }, stop.frame === 0 ? 'The scenario as set up.' : 'Nothing happened in this impulse.')];
    } else {
      const s = steps[j];
      const m = tl.mapAt(j);
      const before = j >= 0 ? tl.mapAt(j - 1) : undefined;
      const evs = s ? (mode === 'event' ? [s.events[stop.event]] : s.events) : [];
      view.show(m, before, evs);
      const pos = s ? s.position : frames[0].position;
      label.textContent = `${j < 0 ? 'Start' : `${mode === 'event' ? `Event ${i} of ${list.length - 1} · step ${j + 1}` : `Step ${j + 1}`} of ${steps.length}`} · turn ${pos.turn}, impulse ${pos.impulse} · ${pos.phase} / ${pos.step}`;
      chose.textContent = s ? (s.by === 'chance' ? `Chance: ${s.choice}` : `${s.by} chose “${s.choice}”`) : '';
      eventsTitle.textContent = mode === 'event' ? 'Events of this step (the one shown is marked)' : 'Events of this step';
      shownEvents = s && s.events.length ? s.events.map((e, x) => item(e, mode === 'event' && x === stop.event)) : [() => h('li', { class: 'muted empty' }, j < 0 ? 'The scenario as set up.' : 'No event: a choice that opens the next one.')];
    }
    fillEvents(`${mode} ${i}`, shownEvents, mode === 'event' ? stop.event + 1 : 0);
    const done = mode === 'impulse' ? stop.frame : impulsesAt(j);
    onFrame(done, frames[done]);
  }

  function setMode(m) {
    if (m === mode) return;
    // Keep the place: the first stop of the new mode at or after the step shown.
    const j = stepOf(stops()[i]);
    mode = m;
    for (const [x, b] of modeButtons) b.setAttribute('aria-pressed', String(x === mode));
    const list = stops();
    let k = list.findIndex((s) => stepOf(s) >= j);
    if (k < 0) k = list.length - 1;
    show(k);
  }

  let timer;
  const pause = () => {
    clearInterval(timer);
    timer = undefined;
    play.replaceChildren(icon('play'), ' Play');
    play.title = 'Play (space)';
    play.setAttribute('aria-label', play.title);
    play.setAttribute('aria-pressed', 'false');
  };
  const toggle = () => {
    if (timer) return pause();
    if (i >= stops().length - 1) show(0);
    play.replaceChildren(icon('pause'), ' Pause');
    play.title = 'Pause (space)';
    play.setAttribute('aria-label', play.title);
    play.setAttribute('aria-pressed', 'true');
    timer = setInterval(() => (i >= stops().length - 1 ? pause() : show(i + 1)), Number(speed.value));
  };
  const go = (k) => {
    pause();
    show(k);
  };
  first.addEventListener('click', () => go(0));
  prev.addEventListener('click', () => go(i - 1));
  next.addEventListener('click', () => go(i + 1));
  last.addEventListener('click', () => go(stops().length - 1));
  play.addEventListener('click', toggle);
  slider.addEventListener('input', () => go(Number(slider.value)));
  const onKey = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return; // shift and an arrow pans the map (zoom.js)
    // Fields and the slider take their own keys (the slider steps through its input event).
    if (e.target instanceof HTMLElement && e.target.closest('input, select, textarea, [contenteditable]')) return;
    const act = { ArrowRight: () => go(i + 1), ArrowLeft: () => go(i - 1), Home: () => go(0), End: () => go(stops().length - 1), ' ': toggle }[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  };
  // A focused button would also take space as a click on keyup: the keydown above has already acted.
  const onKeyUp = (e) => e.key === ' ' && e.target instanceof HTMLButtonElement && e.preventDefault();
  document.addEventListener('keydown', onKey);
  document.addEventListener('keyup', onKeyUp);

  root.append(
    h(
      'div',
      { class: 'viewer' },
      h(
        'div',
        { class: 'viewer-map' },
        h('div', { class: 'map-bar' }, view.bar),
        h('div', { class: 'map-frame' }, view.under ?? null, view.map, view.above ?? null, view.overview ?? null),
        h('p', { class: 'map-key muted small' }, view.key),
        controls,
        h('div', { class: 'map-bar' }, modeGroup, h('label', { class: 'muted small' }, 'Speed ', speed)),
        label,
        chose,
        below,
      ),
      h('div', { class: 'viewer-events' }, eventsTitle, events, h('p', { class: 'muted small' }, 'Keys: ← → step, Home / End, space plays or pauses; + and - zoom, 0 fits, shift and an arrow pans (or the wheel and a drag). Moves are drawn as arrows; attacks in red onto a ringed target with the odds, die and result.')),
    ),
  );
  show(0);
  return { show: (k) => (mode === 'impulse' ? go(k) : (setMode('impulse'), go(k))), stop: () => (pause(), view.stop?.(), nearEnd?.disconnect(), document.removeEventListener('keydown', onKey), document.removeEventListener('keyup', onKeyUp)) };
}
