// The replay viewer: a match's map frame by frame (GET /api/matches/:id/board).
import { colour, svg, text } from './charts.js';

const NEUTRAL = '#c9ced8';

/** Project lon/lat to the box: equirectangular, longitudes shrunk by the cosine of the mean latitude. */
function projector(areas, width, height, pad = 24) {
  const lat0 = areas.reduce((a, x) => a + x.lat, 0) / Math.max(1, areas.length);
  const k = Math.cos((lat0 * Math.PI) / 180);
  const xs = areas.map((a) => a.lon * k);
  const ys = areas.map((a) => a.lat);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const s = Math.min((width - 2 * pad) / (maxX - minX || 1), (height - 2 * pad) / (maxY - minY || 1));
  const ox = (width - s * (maxX - minX)) / 2;
  const oy = (height - s * (maxY - minY)) / 2;
  return (a) => [ox + (a.lon * k - minX) * s, oy + (maxY - a.lat) * s];
}

const frameLabel = (f, i, n) =>
  `${i === 0 ? 'Start' : `Impulse ${f.impulse + 1} of ${n - 1}`} · turn ${f.position.turn}, impulse ${f.position.impulse} · ${f.position.phase} / ${f.position.step}`;

/** Draw `board` into `root` with its controls; returns a function that stops playing. */
export function replayViewer(root, board) {
  const width = 900;
  const height = 560;
  // Fit the map to where the game happens: areas a scenario power controls or stands in, in any frame
  // (the rest of the map is drawn too, beyond the edges when the scenario is regional).
  const powersInPlay = new Set(board.sides.flatMap((s) => s.powers));
  const active = new Set();
  for (const f of board.frames) {
    for (const [area, owner] of Object.entries(f.control)) if (powersInPlay.has(owner)) active.add(area);
    for (const area of Object.keys(f.units)) active.add(area);
  }
  const focus = board.layout.areas.filter((a) => active.has(a.id));
  const project = projector(focus.length >= 3 ? focus : board.layout.areas, width, height, 40);
  const at = new Map(board.layout.areas.map((a) => [a.id, project(a)]));
  const powers = [...new Set(board.sides.flatMap((s) => s.powers))];
  for (const p of powers) colour(p);

  const map = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'board', overflow: 'hidden', 'data-testid': 'board', role: 'img', 'aria-label': `Map of match ${board.matchId}` });
  const links = svg('g', { stroke: '#b9c3d3', 'stroke-width': 0.8 });
  for (const [a, b] of board.layout.links) {
    const p = at.get(a);
    const q = at.get(b);
    if (p && q) links.append(svg('line', { x1: p[0], y1: p[1], x2: q[0], y2: q[1] }));
  }
  const areaLayer = svg('g');
  const shapes = new Map();
  for (const a of board.layout.areas) {
    const [x, y] = at.get(a.id);
    const shape =
      a.kind === 'sea'
        ? svg('rect', { x: x - 6, y: y - 6, width: 12, height: 12, rx: 3, fill: '#cfe0f3', stroke: '#8fb0d6', 'data-area': a.id, 'data-testid': 'area' })
        : svg('circle', { cx: x, cy: y, r: 7, fill: NEUTRAL, stroke: '#fff', 'stroke-width': 1.2, 'data-area': a.id, 'data-testid': 'area' });
    const title = svg('title');
    shape.append(title);
    shapes.set(a.id, { shape, title, a });
    areaLayer.append(shape);
  }
  // Names, when the view is not too crowded for them.
  const labels = svg('g', { 'pointer-events': 'none' });
  const inView = board.layout.areas.filter((a) => {
    const [x, y] = at.get(a.id);
    return x >= 0 && x <= width && y >= 0 && y <= height;
  });
  if (inView.length <= 70) {
    for (const a of inView) {
      const [x, y] = at.get(a.id);
      labels.append(text(x, y + 17, a.name, { 'text-anchor': 'middle', fill: a.kind === 'sea' ? '#4a6f99' : '#555d6b', style: `font-size:9px${a.kind === 'sea' ? ';font-style:italic' : ''}` }));
    }
  }
  const unitLayer = svg('g');
  map.append(links, areaLayer, labels, unitLayer);

  const legend = document.createElement('div');
  legend.className = 'legend';
  for (const s of board.sides) for (const p of s.powers) {
    const span = document.createElement('span');
    span.style.setProperty('--c', colour(p));
    span.textContent = `${p} (${s.name})`;
    legend.append(span);
  }

  const controls = document.createElement('div');
  controls.className = 'controls';
  const button = (label, testid, title) => {
    const b = document.createElement('button');
    b.textContent = label;
    b.title = title;
    b.dataset.testid = testid;
    b.setAttribute('data-testid', testid);
    controls.append(b);
    return b;
  };
  const first = button('Start', 'step-first', 'The scenario as set up');
  const prev = button('◀', 'step-prev', 'Previous impulse (←)');
  const play = button('▶ Play', 'play', 'Play / pause (space)');
  const next = button('▶', 'step-next', 'Next impulse (→)');
  const last = button('End', 'step-last', 'The last impulse');
  const slider = document.createElement('input');
  Object.assign(slider, { type: 'range', min: 0, max: board.frames.length - 1, value: 0 });
  slider.setAttribute('aria-label', 'Frame');
  slider.setAttribute('data-testid', 'slider');
  controls.append(slider);
  const label = document.createElement('div');
  label.setAttribute('data-testid', 'frame-label');
  label.className = 'muted';

  const events = document.createElement('ol');
  events.className = 'events';
  events.setAttribute('data-testid', 'events');

  let i = 0;
  const show = (k) => {
    i = Math.max(0, Math.min(board.frames.length - 1, k));
    const f = board.frames[i];
    for (const { shape, title, a } of shapes.values()) {
      const owner = f.control[a.id];
      if (a.kind === 'land') shape.setAttribute('fill', owner && owner !== 'neutral' ? colour(owner) : NEUTRAL);
      const units = f.units[a.id] ?? [];
      title.textContent = `${a.name}${owner ? ` — ${owner}` : ''}${units.length ? `\n${units.map((u) => `${u.power} ${u.label}`).join('\n')}` : ''}`;
    }
    unitLayer.replaceChildren();
    for (const [area, units] of Object.entries(f.units)) {
      const p = at.get(area);
      if (!p) continue;
      const byPower = new Map();
      for (const u of units) byPower.set(u.power, (byPower.get(u.power) ?? 0) + 1);
      [...byPower].forEach(([power, n], j) => {
        const x = p[0] + 8 + j * 13;
        const y = p[1] - 12;
        unitLayer.append(
          svg('rect', { x, y, width: 12, height: 10, rx: 2, fill: colour(power), stroke: '#fff', 'stroke-width': 0.6, 'data-testid': 'unit', 'data-power': power }),
          text(x + 6, y + 8, String(n), { 'text-anchor': 'middle', fill: '#fff', style: 'font-size:8px' }),
        );
      });
    }
    slider.value = String(i);
    label.textContent = frameLabel(f, i, board.frames.length);
    events.replaceChildren(
      ...(f.events.length ? f.events : [{ type: '', power: '', text: i === 0 ? 'The scenario as set up.' : 'No events in this impulse.' }]).map((e) => {
        const li = document.createElement('li');
        li.textContent = e.type ? `${e.power ? `${e.power}: ` : ''}${e.text}` : e.text;
        if (e.type) li.title = e.type;
        return li;
      }),
    );
  };
  let timer;
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
    play.textContent = '▶ Play';
  };
  const toggle = () => {
    if (timer) return stop();
    if (i >= board.frames.length - 1) show(0);
    play.textContent = '⏸ Pause';
    timer = setInterval(() => (i >= board.frames.length - 1 ? stop() : show(i + 1)), 500);
  };
  first.onclick = () => (stop(), show(0));
  prev.onclick = () => (stop(), show(i - 1));
  next.onclick = () => (stop(), show(i + 1));
  last.onclick = () => (stop(), show(board.frames.length - 1));
  play.onclick = toggle;
  slider.oninput = () => (stop(), show(Number(slider.value)));
  const onKey = (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
    if (e.key === 'ArrowRight') (stop(), show(i + 1));
    else if (e.key === 'ArrowLeft') (stop(), show(i - 1));
    else if (e.key === ' ') (e.preventDefault(), toggle());
  };
  document.addEventListener('keydown', onKey);

  const left = document.createElement('div');
  left.append(legend, map, controls, label);
  const right = document.createElement('div');
  const h = document.createElement('h2');
  h.textContent = 'Events of this impulse';
  right.append(h, events);
  const viewer = document.createElement('div');
  viewer.className = 'viewer';
  viewer.append(left, right);
  root.append(viewer);
  show(0);
  return () => {
    stop();
    document.removeEventListener('keydown', onKey);
  };
}
