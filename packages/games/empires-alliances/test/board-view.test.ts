/** The board view (Game.board): what the replay viewer draws of S3 and of a state (4.1-4.2, 13.85, 14.1, 15.1, 15.2). */
import { describe, expect, it } from 'vitest';
import { empiresAlliances as game } from '../src/game.ts';
import { drawnHexes } from '../src/board-view.ts';
import { boardOf } from '../src/rules/board.ts';
import type { EaState } from '../src/rules/state.ts';
import { approximationPack } from '../src/pack/bundled.ts';

const checked = game.checkPack(approximationPack);
if (!checked.ok) throw new Error('bundled pack is invalid');
const pack = checked.pack;
const view = game.board!;

/** A new S3 game on the pack's fixed deal. */
const fresh = (): EaState => game.setup('1918', pack, { deploy: 'deal' });

/** Play `n` steps, each the option or outcome at a fixed spread of positions, on `s` itself. */
function advance(s: EaState, n: number): EaState {
  for (let k = 0; k < n; k++) {
    const p = game.pending(s);
    if (p.kind === 'terminal') break;
    const list = p.kind === 'chance' ? p.outcomes.map((o) => o.outcome) : p.options;
    s = game.applyOwned!(s, list[(k * 7) % list.length]!).state;
  }
  return s;
}

describe('board view: S3 on its hex map', () => {
  it('layout: the hexes a side holds at the start plus two around them, every hex the scenario names among them, the front as focus', () => {
    const l = view.layout(pack, '1918');
    const s = fresh();
    const b = boardOf(s.key);
    const drawn = drawnHexes(b);
    expect(l.areas).toEqual([]);
    expect(l.hex!.hexes).toHaveLength(drawn.reduce((n, x) => n + x, 0));
    const ids = new Set(l.hex!.hexes.map((h) => h.id));
    for (const h of b.map.hexes) if (b.startCtl[h]! >= 0) expect(ids.has(b.map.id(h))).toBe(true);
    for (const sec of b.scen.sectors) for (const id of sec.hexes) expect(l.focus).toContain(id);
    for (const v of b.vp) expect(l.focus).toContain(b.map.id(v.hex));
    for (const id of l.focus!) expect(ids.has(id), id).toBe(true);
    // Deterministic, and the same without naming the scenario (S3 is the pack's first).
    expect(JSON.stringify(view.layout(pack))).toBe(JSON.stringify(l));
  });

  it('frame: units by hex with nation and factors, control of every held hex, a fort marker per live fort (15.1)', () => {
    const s = fresh();
    const b = boardOf(s.key);
    const f = view.frame(s);
    const onMap = s.hex.filter((h) => h >= 0).length;
    expect(Object.values(f.units).flat()).toHaveLength(onMap);
    const u0 = f.units[b.map.id(s.hex[0]!)]!.find((u) => u.id === '0')!;
    const p = b.units[0]!.prof;
    expect(u0).toMatchObject({ power: 'CP', label: `GE ${p.attack}-${p.defense}-${p.move}`, type: p.type });
    expect(f.control['2756']).toBe('AL'); // Paris
    expect(f.control['2437']).toBe('CP'); // Berlin
    expect(f.control['1948']).toBeUndefined(); // Amsterdam: neutral
    const forts = Object.values(f.markers!).flat().filter((m) => m.kind === 'fort');
    expect(forts).toHaveLength(s.forts.length / 3);
    expect(f.markers!['2756']).toContainEqual({ kind: 'fort', power: 'AL', label: 'Fort 2' });
    expect(JSON.parse(JSON.stringify(f))).toEqual(f);
  });

  it('frame: a changed hand (4.2), a demoralized (13.85) or unsupplied (14.1) unit and the highest entrenchment of a stack (15.2)', () => {
    const s = fresh();
    const b = boardOf(s.key);
    const h = s.hex[0]!;
    const id = b.map.id(h);
    s.flip = [h];
    s.mor[0] = 1;
    s.sup[0] = 2;
    const mates = s.hex.flatMap((x, u) => (x === h ? [u] : []));
    for (const u of mates) s.ent[u] = 1;
    s.ent[mates[mates.length - 1]!] = 2;
    const f = view.frame(s);
    expect(f.control[id]).toBe('AL');
    expect(f.units[id]!.find((u) => u.id === '0')!.status).toEqual(['demoralized', 'unsupplied 2']);
    expect(f.markers![id]!.filter((m) => m.kind === 'entrenchment')).toEqual([{ kind: 'entrenchment', power: 'CP', label: 'Entrenched 2' }]);
  });

  it('a frame is a snapshot: playing on in the same state leaves it as it was', () => {
    let s = fresh();
    const f = view.frame(s);
    const before = JSON.stringify(f);
    s = advance(s, 400);
    expect(JSON.stringify(f)).toBe(before);
    expect(JSON.stringify(view.frame(s))).not.toBe(before);
  });
});
