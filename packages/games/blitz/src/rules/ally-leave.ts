/**
 * 1.3 in the full game: a unit may enter an area another major power of its side holds (outside that
 * power's home country, with a shared enemy and none of the holder's land units there: `allyAreaBarred`)
 * only if the holder lets it, and the holder's air and naval units there must then rebase out, moved
 * as overrun units are (6.6). The AFA and the USA, once the USA is at war with an Axis power, need no
 * leave (`leaveHolder`).
 *
 * Every way in asks the same question: a land move (5.2), a rebase or a TRS's stop on the way (5.1),
 * a return to base (4.1, and after a sea combat), a move to sea ending in a Port (4.2), a retreat
 * (6.6: "where it can stack (see 1.3)") and an overrun move (6.6, the same words; the holder's own
 * units rebasing out move so too). The text names no exception for the forced moves, so a refused area
 * is simply not one where the unit can stack: a retreat goes to another area or takes the extra point
 * of damage, an overrun unit goes to the next closest area or is destroyed (our reading).
 *
 * The question is put once the destination is known (chosen, or the only one), so an area nobody
 * picks is never asked about. The holder's answer stands for the rest of the impulse, for every unit
 * of the mover's power and every way in (`s.leaves`: `power>land:yes|no`; a refused area is no longer
 * offered, `friendlyFor`).
 */
import { IllegalChoiceError } from '@salient/engine';
import { emit, landName, unitName, type Events } from './events.ts';
import type { PackIndex } from './pack-index.ts';
import { isLand, leaveAnswer, leaveKey } from './query.ts';
import type { Ask, BlitzState } from './state.ts';
import { fired } from './sections.ts';
import { leaveHolder } from './wars.ts';

/**
 * Before `choice` takes unit `uid` into `land`: when that needs a leave not yet asked this impulse,
 * hold the choice and put the question (true: the caller stops; the choice is applied again once the
 * holder allows it).
 */
export function holdForLeave(p: PackIndex, s: BlitzState, uid: string, land: string, choice: string, via?: 'combat'): boolean {
  const power = s.units[uid]!.power;
  if (leaveHolder(p, s, power, land) === null || leaveAnswer(s, power, land) !== undefined) return false;
  fired('1.3', s.scenario);
  s.leaveAsk = { unit: uid, land, choice, ...(via ? { via } : {}) };
  return true;
}

/** The question to the holder. */
export function askLeave(s: BlitzState): Ask {
  const a = s.leaveAsk!;
  return { kind: 'decision', power: s.control[a.land]!, prompt: 'ally-leave', options: [`allow ${a.land}`, `refuse ${a.land}`] };
}

/**
 * The holder's answer, kept for the rest of the impulse. Returns the held choice to apply now when the
 * leave is given, null when refused.
 */
export function answerLeave(p: PackIndex, s: BlitzState, c: string, ev: Events): string | null {
  const a = s.leaveAsk!;
  const [verb, arg] = c.split(' ');
  if ((verb !== 'allow' && verb !== 'refuse') || arg !== a.land) throw new IllegalChoiceError(`unexpected '${c}'`);
  const u = s.units[a.unit]!;
  const holder = s.control[a.land]!;
  s.leaves = [...(s.leaves ?? []), leaveKey(u.power, a.land, verb === 'allow')];
  emit(ev, 'ally-leave', `${holder} ${verb === 'allow' ? 'lets' : 'does not let'} ${unitName(p, a.unit)} into ${landName(p, a.land)}`, holder, { unit: a.unit, land: a.land, allowed: verb === 'allow' });
  delete s.leaveAsk;
  return verb === 'allow' ? a.choice : null;
}

/**
 * Unit `uid` has just entered `land`: if an ally holds it, the holder's air and naval units there must
 * rebase out, queued as overrun moves (6.6: the closest area where each can stack and trace supply,
 * within three times its movement, else destroyed), their owner choosing among equals as the example
 * has the USSR rebase.
 */
export function enterArea(p: PackIndex, s: BlitzState, uid: string, land: string): void {
  const holder = leaveHolder(p, s, s.units[uid]!.power, land);
  if (holder === null) return;
  const out = Object.keys(s.units)
    .sort()
    .filter((id) => {
      const x = s.units[id]!;
      return x.at === land && x.power === holder && !isLand(p, x) && !s.overruns.includes(id);
    });
  if (!out.length) return;
  fired('1.3', s.scenario);
  s.overruns.push(...out);
  s.leaving = [...(s.leaving ?? []), ...out];
}
