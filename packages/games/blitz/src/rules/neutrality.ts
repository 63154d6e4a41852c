/**
 * Neutral major powers and the road to war (3.2, 7.2, 7.5, 7.7; Scenario F): the USA and USSR start
 * neutral, their It's War! markers climbing with the Neutral Entry Chart's events and one box a turn,
 * until a marker reaches the war box, the war turn comes, or an enemy declares war on them.
 *
 * This engine's model of neutrality: while neutral a major power takes no activities or Blitzes (it
 * builds, within its It's War! box, and may Lend Lease), during the activities and Blitzes its land
 * areas count as neutral territory for everyone, and its units at sea neither fight nor block nor
 * hold a sea. (The rulebook lets a neutral USSR declare war on minors it is not barred from; that is
 * not offered.)
 *
 * Also here: the Japan announcement of Scenario F, and trades by a major power (7.5: the USSR's Oil to
 * Germany, until they are at war or its marker reaches the box that ends it).
 */
import { IllegalChoiceError } from '@salient/engine';
import { emit, type Events } from './events.ts';
import { landDef, scenarioDef, type PackIndex } from './pack-index.ts';
import type { Ask, BlitzState, SideId } from './state.ts';
import { fired } from './sections.ts';
import { checkAlignments } from './minors.ts';
import { atWar, makeWar } from './wars.ts';
import { chinaSidesWithJapan, endSovietLimit, keepSovietLimit, rtwKeeps, rtwLimited, sovietExcept } from './road-to-war.ts';

const rule = (p: PackIndex, s: BlitzState) => scenarioDef(p, s.scenario).neutralMajors;

/**
 * 3.2: whether `power` may declare war on `target` as far as its neutrality goes. A neutral major power
 * may declare only where the scenario lets it (the USSR, on anyone but Germany and the minors its pact
 * covers); the USA not at all until it is at war.
 */
export function neutralMayDeclare(p: PackIndex, s: BlitzState, power: string, target: string): boolean {
  if (!isNeutral(s, power)) return true;
  const m = rule(p, s)?.mayDeclare?.[power];
  // 9.2: the USSR's restrictions hold only with the Secret Soviet Pact, and then cover Germany's allies and trading partners.
  return !!m && !(sovietExcept(p, s, power) ?? m.except).includes(target);
}

/** Whether `power` is a neutral major power now. */
export const isNeutral = (s: BlitzState, power: string): boolean => s.neutral?.includes(power) ?? false;


/** Set up the markers (and, in the full game, the wars at the start: 3.1) at the start of the scenario. */
export function initialNeutrals(p: PackIndex, s: BlitzState): void {
  const wars = scenarioDef(p, s.scenario).wars;
  if (wars) {
    s.wars = [];
    for (const [a, b] of wars) makeWar(s, a, b);
    fired('3.1', s.scenario);
  }
  const r = rule(p, s);
  if (!r) return;
  s.neutral = Object.keys(r.powers).sort();
  fired('3.1', s.scenario); // the wars at the start: these powers are not in them
  s.itsWar = Object.fromEntries(Object.entries(r.powers).map(([pw, x]) => [pw, x.start]));
}

/** Move a neutral power's marker; entering the war at the war box; an Allied push below 0 pays the Axis (7.2). */
export function moveMarker(p: PackIndex, s: BlitzState, power: string, delta: number, why: string, ev: Events, allied = false): void {
  const r = rule(p, s);
  if (!r || !(isNeutral(s, power) || rtwLimited(s, power)) || !delta) return; // 9.2: a limited USSR's marker still moves
  const was = s.itsWar![power] ?? 0;
  let now = was + delta;
  if (now < 0) {
    const below = -now;
    now = 0;
    const axis = scenarioDef(p, s.scenario).powers.filter((x) => x.side === 'Axis' && !s.out?.includes(x.id)).map((x) => x.id); // 3.4: none out of the game
    if (allied && axis.length) {
      for (const a of axis) (s.vp ??= {})[a] = (s.vp[a] ?? 0) + below;
      emit(ev, 'victory-points', `${power}'s It's War! marker cannot go below 0: ${axis.join(' and ')} gain ${below} VP`, axis[0], { vp: below, objective: 'neutral-entry-floor' });
    }
  }
  s.itsWar![power] = now;
  fired('7.2', s.scenario);
  emit(ev, 'its-war', `${power}'s It's War! marker moves ${delta > 0 ? 'up' : 'down'} to ${now} (${why})`, power, { power, from: was, to: now, why });
  if (now >= r.warAt) enterWar(p, s, power, `its It's War! marker reached ${r.warAt}`, ev);
}

/**
 * The power joins the war (7.2): for good, against every power of its `against` list. In the full game
 * this also comes at the war turn to a power that left neutrality earlier through one declaration (the
 * USA at war with Japan alone), completing its wars.
 */
export function enterWar(p: PackIndex, s: BlitzState, power: string, why: string, ev: Events): void {
  const against = rule(p, s)!.powers[power]!.against;
  const made = against.filter((x) => makeWar(s, power, x));
  if (!isNeutral(s, power) && !made.length) return;
  s.neutral = (s.neutral ?? []).filter((x) => x !== power);
  fired('7.2', s.scenario);
  const list = s.wars ? (made.length ? made : against) : against;
  emit(ev, 'war-entry', `${power} enters the war against ${list.join(' and ')} (${why})`, power, { power, against: list, why });
  checkAlignments(p, s, ev); // 3.3: minors that join once these powers are at war
}

/** Chart events of one kind (7.2): each neutral power's marker moves by the event's delta. */
export function neutralEvent(p: PackIndex, s: BlitzState, kind: 'conquest' | 'capture' | 'declare-minor', by: SideId, ev: Events, land?: string): void {
  const r = rule(p, s);
  if (!r || (!s.neutral?.length && !s.rtwLimited?.length)) return;
  for (const [i, e] of r.events.entries()) {
    if (e.kind !== kind || e.by !== by) continue;
    if (kind === 'capture') {
      if (!land) continue;
      const l = landDef(p, land);
      if (e.lands ? !e.lands.includes(land) : l.oil + l.resources === 0) continue;
      if (e.once) {
        if ((s.eventsDone ?? []).includes(i)) continue;
        (s.eventsDone ??= []).push(i);
      }
    }
    for (const [pw, d] of Object.entries(e.delta)) moveMarker(p, s, pw, d, `${kind}${land ? ` of ${land}` : ''} by the ${by}`, ev, by === 'Allies');
  }
}

/** Turn end (7.2, 5.B): every neutral marker moves up the chart's step. */
export function turnEndMarkers(p: PackIndex, s: BlitzState, ev: Events): void {
  const r = rule(p, s);
  if (!r) return;
  for (const pw of [...(s.neutral ?? []), ...(s.rtwLimited ?? [])]) moveMarker(p, s, pw, r.perTurn, 'another turn of war', ev);
}

/** Start of a turn: the war turn brings every neutral power in (7.2). */
export function turnStartEntry(p: PackIndex, s: BlitzState, ev: Events): void {
  if (s.turn >= 8) endSovietLimit(s, 'Turn 8 has begun', ev); // 9.2
  const r = rule(p, s);
  if (!r || s.turn < r.warTurn) return;
  const entering = s.wars ? Object.keys(r.powers).sort() : [...(s.neutral ?? [])];
  for (const pw of entering) enterWar(p, s, pw, `Turn ${r.warTurn} has come`, ev);
}

type Declarer = NonNullable<NonNullable<ReturnType<typeof rule>>['declarers']>[number];
const declarerAllows = (s: BlitzState, power: string, d: Declarer): boolean =>
  (d.fromTurn === undefined && d.ifHeld === undefined) || (d.fromTurn !== undefined && s.turn >= d.fromTurn) || (d.ifHeld ?? []).some((l) => s.control[l] === power);

/**
 * Major powers `power` may declare war on now (3.2, F.1). Scenario F: only the neutral ones its
 * `declarers` entries name, once their condition holds. The full game: any power of the other side it
 * is not yet at war with, where a `declarers` entry for the pair (Germany on the USSR) allows it and its
 * own neutrality does not forbid it.
 */
export function declarableMajors(p: PackIndex, s: BlitzState, power: string): string[] {
  const r = rule(p, s);
  if (s.wars) {
    const sc = scenarioDef(p, s.scenario);
    const side = sc.powers.find((x) => x.id === power)?.side;
    return sc.powers
      .filter((x) => x.side !== side && !atWar(p, s, power, x.id) && neutralMayDeclare(p, s, power, x.id))
      // 9.2: Germany's restriction on declaring war on the USSR holds only if the USSR played the Secret German Pact.
      .filter((x) => (r?.declarers ?? []).filter((d) => d.power === power && d.on === x.id && (d.power !== 'GER' || d.on !== 'USSR' || rtwKeeps(s, 'secret-german-pact'))).every((d) => declarerAllows(s, power, d)))
      .map((x) => x.id)
      .sort();
  }
  if (!r || !s.neutral?.length) return [];
  return (r.declarers ?? [])
    .filter((d) => d.power === power && isNeutral(s, d.on))
    .filter((d) => declarerAllows(s, power, d))
    .map((d) => d.on)
    .sort();
}

export function declareOnMajor(p: PackIndex, s: BlitzState, power: string, on: string, ev: Events): void {
  if (!declarableMajors(p, s, power).includes(on)) throw new IllegalChoiceError(`${power} may not declare war on ${on} now`);
  fired('3.2', s.scenario);
  emit(ev, 'declaration', `${power} declares war on ${on}`, power, { country: on, aggressor: power, joins: on });
  if (!s.wars) {
    enterWar(p, s, on, `${power} declared war on it`, ev);
    return;
  }
  makeWar(s, power, on);
  // 9.2: a USSR free to declare war on Germany stays limited by 7.7; Germany's declaration ends the limit.
  keepSovietLimit(s, power, on);
  if (power === 'GER' && on === 'USSR') endSovietLimit(s, 'Germany declared war on it', ev);
  chinaSidesWithJapan(p, s, power, on, ev);
  const r = rule(p, s);
  // 3.2, 7.2: a neutral power at war with one of the powers it would enter against is out of
  // neutrality (the USA may then declare freely); one the other way round leaves it neutral otherwise.
  for (const [x, y] of [[on, power], [power, on]] as const) {
    if (isNeutral(s, x) && r?.powers[x]?.against.includes(y)) {
      s.neutral = s.neutral!.filter((z) => z !== x);
      emit(ev, 'war-entry', `${x} is at war with ${y} and no longer neutral`, x, { power: x, against: [y], why: 'declaration of war' });
    }
  }
  // 7.2: the chart's entries for a declaration on a major power.
  const side = scenarioDef(p, s.scenario).powers.find((x) => x.id === power)?.side;
  for (const e of r?.events ?? []) {
    if (e.kind !== 'declare-major' || (e.power !== undefined ? e.power !== power : e.by !== side) || (e.on !== undefined && !e.on.includes(on))) continue;
    for (const [pw, d] of Object.entries(e.delta)) moveMarker(p, s, pw, d, `${power} declared war on ${on}`, ev, e.by === 'Allies');
  }
  checkAlignments(p, s, ev); // 3.3
}

/** 7.7: what a neutral power may use this turn: its It's War! box. */
export function neutralCap(s: BlitzState, power: string): number | undefined {
  return isNeutral(s, power) || rtwLimited(s, power) ? (s.itsWar?.[power] ?? 0) : undefined;
}

// ---------------------------------------------------------------- F's Japan

/** Whether Germany is to be asked at the start of this turn whether Japan goes to war (F). */
export function startJapanQuestion(p: PackIndex, s: BlitzState): void {
  if (scenarioDef(p, s.scenario).japanEntry && !s.japanAtWar) s.japanAsk = true;
}

export function askJapan(p: PackIndex, s: BlitzState): Ask {
  const j = scenarioDef(p, s.scenario).japanEntry!;
  return { kind: 'decision', power: j.power, prompt: 'japan-entry', options: ['japan war', 'japan wait'] };
}

export function applyJapan(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const j = scenarioDef(p, s.scenario).japanEntry!;
  delete s.japanAsk;
  if (choice === 'japan wait') return;
  if (choice !== 'japan war') throw new IllegalChoiceError(`'${choice}' does not answer whether Japan goes to war`);
  s.japanAtWar = s.turn;
  fired('F', s.scenario);
  emit(ev, 'japan-at-war', `${j.power} announces that Japan is at war with the AFA and the USA on Turn ${s.turn}`, j.power, { turn: s.turn });
  for (const [pw, d] of Object.entries(j.itsWar ?? {})) moveMarker(p, s, pw, d, 'Japan went to war', ev);
}

/** F: turn-end victory points for an early Japanese war (before `early.beforeTurn`). */
export function japanEarlyVp(p: PackIndex, s: BlitzState, ev: Events): void {
  const e = scenarioDef(p, s.scenario).japanEntry?.early;
  if (!e || !s.japanAtWar || s.turn >= e.beforeTurn) return;
  (s.vp ??= {})[e.power] = (s.vp[e.power] ?? 0) + e.vp;
  emit(ev, 'victory-points', `${e.power} gains ${e.vp} VP: Japan went to war before Turn ${e.beforeTurn}`, e.power, { vp: e.vp, objective: 'japan-early', total: s.vp[e.power]! });
}
