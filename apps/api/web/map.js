// The replay viewer: a match's map frame by frame (GET /api/matches/:id/board), with its controls.
import { colour, NEUTRAL } from './colours.js';
import { legend, svg, text, title } from './charts.js';
import { h } from './dom.js';
import { hexView } from './hexmap.js';
import { zoomable } from './zoom.js';

const WIDTH = 900;
const MIN_HEIGHT = 320;
const MAX_HEIGHT = 560;
const PLAY_MS = 500;

/**
 * Equirectangular projection fitted to `areas`' bounding box (longitudes shrunk by the cosine of the
 * middle latitude, so shapes keep roughly their proportions away from the equator). The map is as tall
 * as the box needs at the full width, within MIN_HEIGHT and MAX_HEIGHT.
 */
function projector(areas, pad) {
  const lats = areas.map((a) => a.lat);
  const k = Math.cos(((Math.min(...lats) + Math.max(...lats)) / 2) * (Math.PI / 180));
  const xs = areas.map((a) => a.lon * k);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...lats), Math.max(...lats)];
  const [w, hgt] = [maxX - minX || 1, maxY - minY || 1];
  const height = Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, ((WIDTH - 2 * pad) * hgt) / w + 2 * pad)));
  const s = Math.min((WIDTH - 2 * pad) / w, (height - 2 * pad) / hgt);
  const ox = (WIDTH - s * w) / 2;
  const oy = (height - s * hgt) / 2;
  return { height, project: (lon, lat) => [ox + (lon * k - minX) * s, oy + (maxY - lat) * s] };
}

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
 * viewer shows: { map, bar, key, show(i) }.
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
  content.append(linkLayer);
  map.append(content, areaLayer, labelLayer, unitLayer);
  const shapes = new Map();
  let zt = { k: 1, x: 0, y: 0 };
  /** Where area `id` is drawn at the current zoom. */
  const P = (id) => {
    const p = at.get(id);
    return p && [zt.x + zt.k * p[0], zt.y + zt.k * p[1]];
  };

  /** Lays the map out for the current fit: positions, links, area shapes and the names that fit. */
  function layout() {
    const { height, project } = projector(fit === 'play' ? focus : areas, fit === 'play' ? 40 : 24);
    mapHeight = height;
    map.setAttribute('viewBox', `0 0 ${WIDTH} ${mapHeight}`);
    at = new Map(areas.map((a) => [a.id, project(a.lon, a.lat)]));
    const visible = [...at.values()].filter(([x, y]) => x >= 0 && x <= WIDTH && y >= 0 && y <= mapHeight);
    radius = shapeRadius(visible);
    linkLayer.replaceChildren();
    for (const [from, to] of board.layout.links) {
      const a = byId.get(from);
      const b = byId.get(to);
      if (!a || !b) continue;
      // A link across the date line leaves by one edge of the map and comes back by the other.
      const wrap = Math.abs(a.lon - b.lon) > 180 ? Math.sign(a.lon - b.lon) * 360 : 0;
      const [p, q] = [at.get(from), project(b.lon + wrap, b.lat)];
      linkLayer.append(svg('line', { x1: p[0], y1: p[1], x2: q[0], y2: q[1] }));
      if (wrap) {
        const [p2, q2] = [project(a.lon - wrap, a.lat), at.get(to)];
        linkLayer.append(svg('line', { x1: p2[0], y1: p2[1], x2: q2[0], y2: q2[1] }));
      }
    }
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
      show(shown);
      zoomer.reset();
    });
    fitGroup.append(b);
    return [mode, b];
  });
  let shown = 0;
  function show(i) {
    shown = i;
    const f = frames[i];
    const before = frames[i - 1];
    for (const { shape, tip, area } of shapes.values()) {
      const owner = f.control[area.id];
      const units = f.units[area.id] ?? [];
      if (area.kind === 'land') {
        shape.setAttribute('fill', owner && owner !== 'neutral' ? colour(owner) : NEUTRAL);
        shape.setAttribute('data-owner', owner ?? '');
        shape.classList.toggle('changed', Boolean(before && before.control[area.id] !== owner));
      }
      tip.textContent = `${area.name}${area.kind === 'sea' ? ' (sea)' : owner ? `: ${owner === 'neutral' ? 'neutral' : `held by ${owner}`}` : ''}${units.map((u) => `\n${u.power} ${u.label}`).join('')}`;
    }
    unitLayer.replaceChildren();
    for (const [area, units] of Object.entries(f.units)) {
      const p = P(area);
      if (!p) continue;
      const byPower = new Map();
      for (const u of units) byPower.set(u.power, [...(byPower.get(u.power) ?? []), u]);
      [...byPower].forEach(([power, us], j) => {
        const x = p[0] + radius - 1 + j * 15;
        const y = p[1] - radius - 10;
        unitLayer.append(
          svg(
            'g',
            { 'data-testid': 'unit', 'data-area': area, 'data-power': power, 'data-count': us.length },
            svg('rect', { x, y, width: 14, height: 11, rx: 2, fill: colour(power), class: 'counter' }),
            text(x + 7, y + 8.5, String(us.length), { 'text-anchor': 'middle', class: 'counter-n' }),
            title(`${byId.get(area)?.name ?? area}: ${us.map((u) => `${power} ${u.label}`).join(', ')}`),
          ),
        );
      });
    }
  }

  const powerItems = board.sides.flatMap((s) => s.powers.map((p) => ({ name: p, colour: colour(p), note: `(${s.name})` })));
  layout();
  const zoomer = zoomable(map, content, {
    onZoom: (t) => {
      zt = { k: t.k, x: t.x, y: t.y };
      place();
      show(shown);
    },
  });
  return {
    map,
    stop: zoomer.stop,
    bar: [legend([...powerItems, { name: 'neutral', colour: NEUTRAL }]), fitGroup, zoomer.bar],
    key: 'Circles are land, coloured by who holds it (ringed when it changed hands this impulse); squares are sea zones; a counter gives the units of a power in the area. Hover for names and units.',
    show,
  };
}

/**
 * Draws `board` into `root` with its controls, and `below` under the frame's label: an area map, or a
 * hex map when the layout has one (hexmap.js). onFrame(i, frame) is told of every frame shown.
 * Returns { show(i), stop() }; stop() ends playing and lets go of the keyboard.
 */
export function replayViewer(root, board, { onFrame = () => {}, below = [] } = {}) {
  const frames = board.frames;
  const view = board.layout.hex ? hexView(board) : areaView(board);
  const controls = h('div', { class: 'controls', role: 'group', 'aria-label': 'Replay controls' });
  const button = (content, testid, hint) => {
    const b = h('button', { type: 'button', 'data-testid': testid, title: hint, 'aria-label': hint }, content);
    controls.append(b);
    return b;
  };
  const first = button(icon('first'), 'step-first', 'Start: the scenario as set up (Home)');
  const prev = button(icon('prev'), 'step-prev', 'Previous impulse (←)');
  const play = button([icon('play'), ' Play'], 'play', 'Play (space)');
  const next = button(icon('next'), 'step-next', 'Next impulse (→)');
  const last = button(icon('last'), 'step-last', 'The end of the match (End)');
  play.classList.add('primary');
  const slider = h('input', { type: 'range', min: 0, max: frames.length - 1, value: 0, step: 1, 'aria-label': 'Frame', 'data-testid': 'slider' });
  controls.append(slider);
  const label = h('div', { class: 'frame-label', 'data-testid': 'frame-label', 'aria-live': 'polite' });
  const events = h('ol', { class: 'events', 'data-testid': 'events', 'aria-label': 'Events of this impulse' });

  let i = 0;
  function show(k) {
    i = Math.max(0, Math.min(frames.length - 1, k));
    const f = frames[i];
    view.show(i);
    slider.value = String(i);
    label.textContent = frameLabel(f, i, frames.length);
    first.disabled = prev.disabled = i === 0;
    next.disabled = last.disabled = i === frames.length - 1;
    events.replaceChildren(
      ...(f.events.length
        ? f.events.map((e) => h('li', { 'data-type': e.type, 'data-power': e.power }, e.power ? h('span', { class: 'chip', style: `--c:${colour(e.power)}` }, e.power) : null, h('span', { class: 'event-text' }, e.text), h('span', { class: 'event-type' }, e.type)))
        : [h('li', { class: 'muted empty' }, i === 0 ? 'The scenario as set up.' : 'Nothing happened in this impulse.')]),
    );
    onFrame(i, f);
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
    if (i >= frames.length - 1) show(0);
    play.replaceChildren(icon('pause'), ' Pause');
    play.title = 'Pause (space)';
    play.setAttribute('aria-label', play.title);
    play.setAttribute('aria-pressed', 'true');
    timer = setInterval(() => (i >= frames.length - 1 ? pause() : show(i + 1)), PLAY_MS);
  };
  const go = (k) => {
    pause();
    show(k);
  };
  first.addEventListener('click', () => go(0));
  prev.addEventListener('click', () => go(i - 1));
  next.addEventListener('click', () => go(i + 1));
  last.addEventListener('click', () => go(frames.length - 1));
  play.addEventListener('click', toggle);
  slider.addEventListener('input', () => go(Number(slider.value)));
  const onKey = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return; // shift and an arrow pans the map (zoom.js)
    // Fields and the slider take their own keys (the slider steps through its input event).
    if (e.target instanceof HTMLElement && e.target.closest('input, select, textarea, [contenteditable]')) return;
    const act = { ArrowRight: () => go(i + 1), ArrowLeft: () => go(i - 1), Home: () => go(0), End: () => go(frames.length - 1), ' ': toggle }[e.key];
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
        view.map,
        h('p', { class: 'map-key muted small' }, view.key),
        controls,
        label,
        below,
      ),
      h('div', { class: 'viewer-events' }, h('h3', {}, 'Events of this impulse'), events, h('p', { class: 'muted small' }, 'Keys: ← → step, Home / End, space plays or pauses; + and - zoom, 0 fits, shift and an arrow pans (or the wheel and a drag).')),
    ),
  );
  show(0);
  return { show: go, stop: () => (pause(), view.stop?.(), document.removeEventListener('keydown', onKey), document.removeEventListener('keyup', onKeyUp)) };
}
