// A hex map for the replay viewer (board.layout.hex): hexes coloured by terrain and tinted by who
// controls them, hexside features, rail, cities, the front between the sides, unit counters in stacks
// and markers (forts, entrenchments). Four stacked SVGs (see `under` and `above`): the map is built once; a
// frame changes only the tints of hexes whose control changed, the front line, the counter and marker
// layer, and what it did (`above`).
import { colour, NEUTRAL } from './colours.js';
import { legend, svg, text, title } from './charts.js';
import { h } from './dom.js';
import { drawActions, shapesOf, unitPlaces } from './actions.js';
import { zoomable } from './zoom.js';

/** User units per grid unit (the distance between neighbouring centres). */
const K = 30;
/** Corner radius of a hex, and half a hexside. */
const R = K / Math.sqrt(3);
/** The widest the map is drawn for its height (a tall frame is widened to this), and the narrowest. */
const MIN_ASPECT = 1.25;
const MAX_ASPECT = 2.2;

const TERRAIN_FILL = { clear: '#f3f1e6', forest: '#a9c795', mountain: '#d3b996', swamp: '#bccab0', desert: '#ecdcae', rough: '#d9cbb0', sea: '#cfe5f4', lake: '#a9d0ec', ocean: '#c4ddf0' };
const SPARE_FILLS = ['#e3d9c6', '#cfdcc0', '#d8cfe0', '#e6d3c3', '#c9dad8'];
const terrainFill = (t, k) => TERRAIN_FILL[t.id] ?? (t.water ? '#cfe5f4' : SPARE_FILLS[k % SPARE_FILLS.length]);

/** Hexside features drawn, bottom to top, with their style class and legend text. */
const SIDE_STYLES = [
  ['lake', 'side-lake', 'lake shore'],
  ['border', 'side-border', 'border'],
  ['alpine', 'side-alpine', 'alpine'],
  ['river', 'side-river', 'river'],
  ['major-river', 'side-major-river', 'major river'],
  ['strait', 'side-strait', 'strait'],
];

/** Grid units a side of a paint tile (see `repaint`). */
const TILE = 8;
const tileOf = (x, y) => `${Math.floor(x / (K * TILE))},${Math.floor(y / (K * TILE))}`;

/** "#rrggbb" mixed with "#rrggbb" by t in [0, 1]. */
function mix(a, b, t) {
  const p = (c, i) => parseInt(c.slice(1 + 2 * i, 3 + 2 * i), 16);
  return `#${[0, 1, 2].map((i) => Math.round(p(a, i) * (1 - t) + p(b, i) * t).toString(16).padStart(2, '0')).join('')}`;
}

/** `Fort 2` -> `F2`, `unsupplied 1` -> `U1`, `demoralized` -> `D`: a marker's or status's short form. */
const short = (s) => {
  const words = String(s).split(/\s+/).filter(Boolean);
  return words.filter((w) => !/^\d+$/.test(w)).map((w) => w[0].toUpperCase()).join('').slice(0, 2) + words.filter((w) => /^\d+$/.test(w)).join('');
};

/**
 * Text in the box from x to x + width: squeezed to fill it when its estimated width is more (SVG
 * textLength), else at its start or, with `centre`, in its middle.
 */
function fitted(x, y, s, width, size, attrs, centre = false) {
  if (s.length * size * 0.58 <= width) return centre ? text(x + width / 2, y, s, { ...attrs, 'text-anchor': 'middle' }) : text(x, y, s, attrs);
  return text(x, y, s, { ...attrs, textLength: width.toFixed(1), lengthAdjust: 'spacingAndGlyphs' });
}

/**
 * The hex view of `board` for replayViewer: { map, bar, key, show(frame, before, events) }. Hexes carry data-testid=hex and
 * data-hex (printed id), data-owner; counters data-testid=unit with data-hex and data-unit; stacks
 * data-testid=stack with data-count; markers data-testid=marker.
 */
export function hexView(board) {
  const layout = board.layout.hex;
  const frames = board.frames;
  const pointy = layout.orientation !== 'flat';
  const corners = Array.from({ length: 6 }, (_, k) => {
    const a = ((pointy ? 30 : 0) + 60 * k) * (Math.PI / 180);
    return [R * Math.cos(a), R * Math.sin(a)];
  });
  const hexes = new Map(layout.hexes.map((x) => [x.id, { ...x, cx: x.x * K, cy: x.y * K }]));
  const terrains = new Map(layout.terrains.map((t, k) => [t.id, { ...t, fill: terrainFill(t, k) }]));
  const cityAt = new Map(layout.cities.map((c) => [c.hex, c]));
  const isLand = (x) => !terrains.get(x.terrain)?.water;
  const poly = (x) => corners.map(([dx, dy]) => `${(x.cx + dx).toFixed(1)},${(x.cy + dy).toFixed(1)}`).join(' ');
  /** The hexside between two drawn hexes, as a path segment. */
  const sideSeg = (a, b) => {
    const [mx, my] = [(a.cx + b.cx) / 2, (a.cy + b.cy) / 2];
    const len = Math.hypot(b.cx - a.cx, b.cy - a.cy) || 1;
    const [nx, ny] = [(-(b.cy - a.cy) / len) * (R / 2), ((b.cx - a.cx) / len) * (R / 2)];
    return `M${(mx - nx).toFixed(1)} ${(my - ny).toFixed(1)}L${(mx + nx).toFixed(1)} ${(my + ny).toFixed(1)}`;
  };
  // Neighbouring land hexes (centres one unit apart), for the front line.
  const cell = (x, y) => `${Math.round(x * 2)},${Math.round(y * 2)}`;
  const byCell = new Map(layout.hexes.map((x) => [cell(x.x, x.y), x.id]));
  const landPairs = [];
  for (const x of layout.hexes) {
    if (!isLand(x)) continue;
    for (const [dx, dy] of pointy ? [[1, 0], [0.5, Math.sqrt(3) / 2], [-0.5, Math.sqrt(3) / 2]] : [[0, 1], [Math.sqrt(3) / 2, 0.5], [Math.sqrt(3) / 2, -0.5]]) {
      const nb = byCell.get(cell(x.x + dx, x.y + dy));
      if (nb && isLand(hexes.get(nb))) landPairs.push([x.id, nb]);
    }
  }

  /** A viewBox around `ids` (or every hex), padded, widened or heightened to a readable shape. */
  function box(ids) {
    const pts = ids.map((id) => hexes.get(id)).filter(Boolean);
    const use = pts.length ? pts : [...hexes.values()];
    let [x0, x1, y0, y1] = [Math.min(...use.map((p) => p.cx)) - 1.5 * K, Math.max(...use.map((p) => p.cx)) + 1.5 * K, Math.min(...use.map((p) => p.cy)) - 1.5 * K, Math.max(...use.map((p) => p.cy)) + 1.5 * K];
    const [w, hgt] = [x1 - x0, y1 - y0];
    if (w / hgt < MIN_ASPECT) [x0, x1] = [x0 - (hgt * MIN_ASPECT - w) / 2, x1 + (hgt * MIN_ASPECT - w) / 2];
    else if (w / hgt > MAX_ASPECT) [y0, y1] = [y0 - (w / MAX_ASPECT - hgt) / 2, y1 + (w / MAX_ASPECT - hgt) / 2];
    return `${x0.toFixed(1)} ${y0.toFixed(1)} ${(x1 - x0).toFixed(1)} ${(y1 - y0).toFixed(1)}`;
  }
  // Where it is played: the layout's focus, else every hex a unit stands on in some frame.
  const focus = board.layout.focus?.length ? board.layout.focus : [...new Set(frames.flatMap((f) => Object.keys(f.units)))];
  const fits = { play: box(focus), all: box([]) };
  let fit = focus.some((id) => hexes.has(id)) ? 'play' : 'all';

  const map = svg('svg', { viewBox: fits[fit], class: 'board hexes', 'data-testid': 'board', 'data-layout': 'hex', role: 'img', 'aria-label': `Hex map of match ${board.matchId}, ${board.game} scenario ${board.scenario}` });
  // Hexes are painted as one path per fill (terrain tinted by its holder), which is far cheaper to
  // paint than a polygon each; each hex keeps an unpainted polygon for hover and for its attributes.
  const tintLayer = svg('g', { class: 'hex-tints', 'aria-hidden': 'true' });
  const changedPath = svg('path', { class: 'hex-changed', 'aria-hidden': 'true' });
  const hexLayer = svg('g', { class: 'hex-cells' });
  const sideLayer = svg('g', { class: 'hexsides', 'aria-hidden': 'true' });
  const railLayer = svg('g', { class: 'rail', 'aria-hidden': 'true' });
  const frontLayer = svg('g', { class: 'front', 'data-testid': 'front', 'aria-hidden': 'true' });
  const cityLayer = svg('g', { class: 'cities', 'aria-hidden': 'true' });
  const markerLayer = svg('g', { class: 'markers' });
  const unitLayer = svg('g', { class: 'units' });
  const content = svg('g', { class: 'zoom-content' });
  const actionLayer = svg('g', { class: 'actions', 'data-testid': 'actions' });
  // Three stacked SVGs, each composited apart, so a step re-rasters only what it changed: at the bottom
  // the terrain tinted by its holder (changes when a hex changes hands; cheap to raster), then the lines
  // and names that never change (rail, hexsides, cities: the costliest to raster, drawn once), and on top
  // the one a step changes (the front, counters, markers, what the step did, the unpainted hexes that
  // take the pointer). bench:viewer, E&A step mode: 116 -> 33 ms to paint with the top one apart; frame
  // CPU p95 37-88 -> 21-23 ms with the lines apart and tiles (a control change re-rastered them with the tints).
  const under = svg('svg', { viewBox: fits[fit], class: 'board hexes board-under', 'aria-hidden': 'true' });
  const underContent = svg('g', { class: 'zoom-content' });
  underContent.append(tintLayer);
  under.append(underContent);
  const linesSvg = svg('svg', { viewBox: fits[fit], class: 'board hexes board-lines', 'aria-hidden': 'true' });
  const linesContent = svg('g', { class: 'zoom-content' });
  linesContent.append(railLayer, sideLayer, cityLayer);
  linesSvg.append(linesContent);
  map.classList.add('board-over');
  content.append(hexLayer, changedPath, frontLayer, markerLayer, unitLayer);
  map.append(content);
  // And over them, composited apart, what a stop did: an impulse draws dozens of moves across the map,
  // which re-rastered the counters and markers under them with the arrows (bench:viewer, impulse mode).
  const above = svg('svg', { viewBox: fits[fit], class: 'board hexes board-actions', 'aria-hidden': 'true' });
  const actionContent = svg('g', { class: 'zoom-content' }, actionLayer);
  above.append(actionContent);

  // The static map, once.
  const cells = new Map();
  for (const x of hexes.values()) {
    const t = terrains.get(x.terrain);
    const city = cityAt.get(x.id);
    const about = [`${x.id} · ${t?.name ?? x.terrain}`, x.group ? ` (${x.group})` : '', city ? ` · ${city.name}${city.capital ? ', capital' : ''} (${city.kind} city)` : x.name ? ` · ${x.name}` : '', x.port ? ' · port' : ''].join('');
    const shape = svg('polygon', { points: poly(x), fill: t?.fill ?? '#eee', 'data-testid': 'hex', 'data-hex': x.id, 'data-terrain': x.terrain });
    const tip = title(about);
    shape.append(tip);
    hexLayer.append(shape);
    cells.set(x.id, { shape, tip, about, hex: x, land: isLand(x), fill: t?.fill ?? '#eee', owner: null, changed: false, sub: `M${poly(x).replaceAll(' ', 'L')}Z`, paint: t?.fill ?? '#eee' });
  }
  const sidePaths = new Map(SIDE_STYLES.map(([f]) => [f, []]));
  for (const s of layout.hexsides) {
    const [a, b] = [hexes.get(s.a), hexes.get(s.b)];
    if (!a || !b) continue;
    for (const f of s.features) sidePaths.get(f)?.push(sideSeg(a, b));
  }
  for (const [f, cls] of SIDE_STYLES) if (sidePaths.get(f).length) sideLayer.append(svg('path', { d: sidePaths.get(f).join(''), class: cls, 'data-feature': f }));
  const rail = layout.rail.map(([a, b]) => [hexes.get(a), hexes.get(b)]).filter(([a, b]) => a && b);
  if (rail.length) railLayer.append(svg('path', { d: rail.map(([a, b]) => `M${a.cx.toFixed(1)} ${a.cy.toFixed(1)}L${b.cx.toFixed(1)} ${b.cy.toFixed(1)}`).join('') }));
  for (const c of layout.cities) {
    const x = hexes.get(c.hex);
    if (!x) continue;
    const r = c.kind === 'major' ? 4 : 2.8;
    cityLayer.append(
      svg('circle', { cx: x.cx, cy: x.cy - R * 0.55, r, class: c.capital ? 'city capital' : 'city', 'data-city': c.name }),
      text(x.cx, x.cy - R * 0.55 - r - 2, c.name, { 'text-anchor': 'middle', class: c.kind === 'major' ? 'city-name major' : 'city-name' }),
    );
  }

  // Hover: the hex's id, terrain and place, with who holds it and what stands there in the frame shown.
  let shownFrame = frames[0];
  const describe = (id) => {
    const c = cells.get(id);
    const f = shownFrame;
    const owner = f.control[id];
    const units = f.units[id] ?? [];
    const marks = f.markers?.[id] ?? [];
    return `${c.about}${c.land ? (owner ? ` · held by ${owner}` : ' · nobody holds it') : ''}${units.map((u) => `\n${u.power} ${u.label}${u.type ? ` ${u.type}` : ''}${u.status?.length ? ` (${u.status.join(', ')})` : ''}`).join('')}${marks.map((m) => `\n${m.label}${m.power ? ` (${m.power})` : ''}`).join('')}`;
  };
  hexLayer.addEventListener('pointerover', (e) => {
    const id = e.target instanceof Element ? e.target.getAttribute('data-hex') : null;
    if (id && cells.has(id)) cells.get(id).tip.textContent = describe(id);
  });

  const fitGroup = h('div', { class: 'segmented', role: 'group', 'aria-label': 'Zoom' });
  const fitButtons = [
    ['play', 'Where it is played', 'fit-play'],
    ['all', 'Whole map', 'fit-all'],
  ].map(([mode, label, testid]) => {
    const b = h('button', { type: 'button', 'data-testid': testid, 'aria-pressed': String(fit === mode), disabled: mode === 'play' && !focus.some((id) => hexes.has(id)) }, label);
    b.addEventListener('click', () => {
      fit = mode;
      for (const [m, x] of fitButtons) x.setAttribute('aria-pressed', String(m === fit));
      for (const x of [map, under, linesSvg, above]) x.setAttribute('viewBox', fits[fit]);
      zoomer.reset();
    });
    fitGroup.append(b);
    return [mode, b];
  });

  /** Counters of a stack, the first unit on top, each drawn a little up and left of the one under it. */
  function stack(id, x, units) {
    const [w, hgt, step] = [K * 0.8, K * 0.56, 2.2];
    const n = units.length;
    const g = svg('g', { 'data-testid': 'stack', 'data-hex': id, 'data-count': n });
    const x0 = x.cx - w / 2 + ((n - 1) * step) / 2;
    const y0 = x.cy - hgt / 2 + ((n - 1) * step) / 2 - 2;
    for (let j = n - 1; j >= 0; j--) {
      const u = units[j];
      const [cx, cy] = [x0 - j * step, y0 - j * step];
      const sp = u.label.indexOf(' ');
      const [top, main] = sp > 0 ? [u.label.slice(0, sp), u.label.slice(sp + 1)] : ['', u.label];
      const marks = (u.status ?? []).map(short).join(' ');
      g.append(
        svg(
          'g',
          { 'data-testid': 'unit', 'data-hex': id, 'data-unit': u.id, 'data-power': u.power, 'data-label': u.label, class: u.status?.length ? 'counter-g marked' : 'counter-g' },
          svg('rect', { x: cx, y: cy, width: w, height: hgt, rx: 1.5, fill: colour(u.power), class: 'hex-counter' }),
          fitted(cx + 1.5, cy + hgt * 0.36, [top, u.type].filter(Boolean).join(' '), w - 3 - (marks ? marks.length * 3.2 + 1 : 0), 5.2, { class: 'counter-top' }),
          marks ? text(cx + w - 1.5, cy + hgt * 0.36, marks, { 'text-anchor': 'end', class: 'counter-status' }) : null,
          fitted(cx + 1.5, cy + hgt * 0.86, main, w - 3, 8, { class: 'counter-main' }, true),
          title(`${id}: ${u.power} ${u.label}${u.type ? ` ${u.type}` : ''}${u.status?.length ? ` (${u.status.join(', ')})` : ''}`),
        ),
      );
    }
    return g;
  }

  /** The markers of a hex: small tags in a row under its counters. */
  function markers(id, marks) {
    const x = hexes.get(id);
    const [w, hgt] = [K * 0.34, K * 0.22];
    return svg(
      'g',
      { 'data-hex': id },
      marks.map((m, j) => {
        const [mx, my] = [x.cx - (marks.length * (w + 1) - 1) / 2 + j * (w + 1), x.cy + R * 0.5];
        return svg(
          'g',
          { 'data-testid': 'marker', 'data-hex': id, 'data-kind': m.kind, class: `marker marker-${m.kind}` },
          svg('rect', { x: mx, y: my, width: w, height: hgt, rx: 1, stroke: m.power ? colour(m.power) : '#555' }),
          text(mx + w / 2, my + hgt * 0.78, short(m.label), { 'text-anchor': 'middle' }),
          title(`${id}: ${m.label}${m.power ? ` (${m.power})` : ''}`),
        );
      }),
    );
  }

  /**
   * Brings `layer` to the frame's `byHex` (hex id -> list): a hex whose list is what is drawn keeps its
   * group; others are drawn anew by make(id, list) or removed. `drawn` maps hex id -> { key, g }.
   */
  function sync(layer, drawn, byHex, make) {
    for (const [id, d] of drawn) {
      if (byHex[id]?.length) continue;
      d.g.remove();
      drawn.delete(id);
    }
    for (const [id, list] of Object.entries(byHex)) {
      if (!hexes.has(id) || !list.length) continue;
      const key = JSON.stringify(list);
      const d = drawn.get(id);
      if (d?.key === key) continue;
      const g = make(id, list);
      if (d) d.g.replaceWith(g);
      else layer.append(g);
      drawn.set(id, { key, g });
    }
  }
  const drawnStacks = new Map();
  const drawnMarks = new Map();

  const centre = (id) => {
    const x = hexes.get(id);
    return x && [x.cx, x.cy];
  };
  /**
   * The path of every hex of a tile painted `paint`, made again after hexes of the tile took or left
   * that fill. Tiles of TILE × TILE grid units keep each path small on the screen: the browser repaints
   * the bounds of a path that changed, so a hex changing hands repaints its tile, not the whole map.
   */
  const painted = new Map();
  const tileCells = new Map();
  for (const c of cells.values()) {
    c.tile = tileOf(c.hex.cx, c.hex.cy);
    if (!tileCells.has(c.tile)) tileCells.set(c.tile, []);
    tileCells.get(c.tile).push(c);
  }
  function repaint(key) {
    const [tile, paint] = key.split('|');
    let p = painted.get(key);
    const d = tileCells.get(tile).filter((c) => c.paint === paint).map((c) => c.sub).join('');
    if (!p) {
      p = svg('path', { fill: paint, class: 'hex-tint' });
      painted.set(key, p);
      tintLayer.append(p);
    }
    p.setAttribute('d', d);
  }
  for (const key of new Set([...cells.values()].map((c) => `${c.tile}|${c.paint}`))) repaint(key);
  /** The front as one path per tile (by the hexside's middle), for the same reason. */
  const frontPaths = new Map();
  const pairTiles = landPairs.map(([a, b]) => tileOf((hexes.get(a).cx + hexes.get(b).cx) / 2, (hexes.get(a).cy + hexes.get(b).cy) / 2));

  function show(f, before, events = []) {
    shownFrame = f;
    // Tints: only hexes whose holder changed since the last frame drawn.
    const dirty = new Set();
    const changedSubs = [];
    for (const c of cells.values()) {
      if (!c.land) continue;
      const owner = f.control[c.hex.id] ?? '';
      const changed = Boolean(before && (before.control[c.hex.id] ?? '') !== owner);
      if (changed) changedSubs.push(c.sub);
      if (owner === c.owner) continue;
      c.owner = owner;
      const paint = mix(c.fill, owner && owner !== 'neutral' ? colour(owner) : NEUTRAL, owner && owner !== 'neutral' ? 0.3 : 0.55);
      if (paint !== c.paint) {
        dirty.add(`${c.tile}|${c.paint}`);
        dirty.add(`${c.tile}|${paint}`);
        c.paint = paint;
      }
      c.shape.setAttribute('data-owner', owner);
    }
    for (const key of dirty) repaint(key);
    const changedD = changedSubs.join('');
    if (changedPath.getAttribute('d') !== changedD) changedPath.setAttribute('d', changedD);
    const front = new Map();
    landPairs.forEach(([a, b], j) => {
      if (!f.control[a] || !f.control[b] || f.control[a] === f.control[b]) return;
      front.set(pairTiles[j], (front.get(pairTiles[j]) ?? '') + sideSeg(hexes.get(a), hexes.get(b)));
    });
    // Only the tiles whose part of the front moved are written (an unchanged write repaints what is under it too).
    for (const tile of new Set([...front.keys(), ...frontPaths.keys()])) {
      const d = front.get(tile) ?? '';
      let p = frontPaths.get(tile);
      if (!p) frontLayer.append((p = svg('path', { 'data-tile': tile })));
      frontPaths.set(tile, p);
      if ((p.getAttribute('d') ?? '') !== d) p.setAttribute('d', d);
    }
    sync(markerLayer, drawnMarks, f.markers ?? {}, markers);
    sync(unitLayer, drawnStacks, f.units, (id, units) => stack(id, hexes.get(id), units));
    const away = Object.entries(f.units).filter(([id]) => !hexes.has(id)).reduce((n, [, us]) => n + us.length, 0);
    offMap.textContent = away ? `${away} unit${away === 1 ? '' : 's'} on hexes past the part drawn.` : '';
    const places = unitPlaces(before ?? f);
    drawActions(actionLayer, events.flatMap((e) => shapesOf(e, places)), centre, K / 12, { svg, text });
  }

  const offMap = h('span', { class: 'muted', 'data-testid': 'off-map' });
  const powerItems = board.sides.flatMap((s) => s.powers.map((p) => ({ name: p, colour: colour(p), note: `(${s.name})` })));
  const terrainItems = layout.terrains.filter((t) => layout.hexes.some((x) => x.terrain === t.id)).map((t) => ({ name: t.name, colour: terrains.get(t.id).fill }));
  const lines = SIDE_STYLES.filter(([f]) => sidePaths.get(f).length).map(([, cls, name]) => h('li', {}, h('span', { class: `line-swatch ${cls}` }), name));
  // The overview: every land hex drawn as one path.
  const landPath = [...hexes.values()].filter(isLand).map((x) => `M${poly(x).replaceAll(' ', 'L')}Z`).join('');
  const zoomer = zoomable(map, [content, underContent, linesContent, actionContent], { drawOverview: (g) => g.append(svg('path', { d: landPath, class: 'overview-land' })) });
  return {
    map,
    under: [under, linesSvg],
    above,
    overview: zoomer.overview,
    stop: zoomer.stop,
    bar: [legend([...powerItems, { name: 'neutral', colour: NEUTRAL }]), fitGroup, zoomer.bar],
    key: [
      `Hexes are coloured by terrain and tinted by who holds them (outlined when they changed hands this impulse); the red line is the front between the sides. Counters show nation, type and factors, stacked per hex with the first unit on top; small tags mark forts (F) and entrenchments (E); D and U on a counter mark a demoralized or unsupplied unit. Hover a hex for its printed id and contents. `,
      offMap,
      h('ul', { class: 'legend terrain-legend', 'aria-label': 'Terrain and hexsides' }, terrainItems.map((t) => h('li', { 'data-terrain': t.name }, h('span', { class: 'swatch', style: `--c:${t.colour}` }), t.name)), lines, rail.length ? h('li', {}, h('span', { class: 'line-swatch rail-swatch' }), 'rail') : null, h('li', {}, h('span', { class: 'line-swatch front-swatch' }), 'front')),
    ],
    show,
  };
}
