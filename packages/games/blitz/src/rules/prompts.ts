/**
 * Every decision Blitz! asks of a power, by prompt name: what is asked and what the options look like
 * (their encoded text, which is what a bot's `labels` hold). `Ask` takes its prompt from these keys,
 * so the rules code cannot ask anything this catalogue does not describe; docs/bot-protocol.md lists it.
 *
 * In the option forms: UNIT is a unit id (a key of the observation's `units`), AREA a land area id
 * (a key of `control`), SEA a sea area id, COUNTRY a country id of the map, POWER a power id, N a
 * whole number; `done` and the like are literal.
 */
import type { PromptInfo } from '@salient/engine';

export const DECISION_PROMPTS = {
  'ally-leave': { asks: 'an ally controlling an area asks leave to enter it (1.3); its holder answers', options: '`allow AREA`, `refuse AREA`' },
  'announce-attack': {
    asks: 'announce the next Ground, Factory or Port Attack, or a declaration of war, or stop announcing (5.3, 3.2)',
    options: '`attack AREA`, `bomb AREA` (a Factory Attack), `raid AREA` (a Port Attack), `join AREA` (add to an attack another power of the side announced), `declare COUNTRY`, then `done`',
  },
  'assign-damage': { asks: 'pick the next unit to take a point of damage (6.5; also a frontier attack, E)', options: '`hit UNIT`' },
  'blitz-choice': { asks: "choose this phase's Blitz option, paid in Oil (2.2)", options: '`blitz land`, `blitz free`, `blitz total`, `blitz air`, `blitz naval` as the power can pay; `blitz nonmotorized` (9.7)' },
  'block-advance': { asks: "a defender's Land Round letter: pick the next attacking unit barred from advancing (6.6)", options: '`block UNIT`' },
  'build-pick': {
    asks: 'spend Resources at the builds, one step at a time, or finish (7.8; 7.3, 9.3, 9.5, 9.6 where they apply)',
    options:
      '`build UNIT`, `repair UNIT`, `pick UNIT` (a Future Addition or weapon), `remove UNIT` (7.3), `research`, `extra resources` (E), `abomb pick`, `abomb develop`, `abomb test`, `abomb build AREA` (7.8), `sabotage POWER` (9.6), `commander COMMANDER AREA` (9.5), then `done`',
  },
  'build-size': { asks: 'the Size to build the unit chosen at (7.8)', options: '`size N`' },
  'build-where': { asks: 'where to place the unit being built (7.8)', options: '`at AREA`' },
  'choose-retreating-unit': { asks: "an attacker's Land Round letter: pick the next unit to retreat (6.6)", options: '`retreat UNIT`' },
  'commander-command': { asks: 'the unit a Commander commands (9.5)', options: '`command UNIT`, or `command none` where it may command none' },
  'commander-move': { asks: "move a Commander at the start of the side's phase, or finish (9.5)", options: '`commander COMMANDER AREA`, then `commanders done`' },
  'commit-attackers': {
    asks: 'commit units to the attack being set up, or launch it (5.3)',
    options: '`add UNIT`, `drop UNIT` (a PARA by air), `abomb UNIT` (the air unit carrying the A-Bomb, 7.8), then `launch` once the attack may go',
  },
  'commit-defence': { asks: 'commit air and naval units to support a defence (5.3)', options: '`defend AREA UNIT`, `defend AREA factory UNIT` (a Factory Attack), then `done`' },
  disband: { asks: 'pick the next unit to disband (D: the Second Front)', options: '`disband UNIT`' },
  'fly-to-sea-combat': { asks: 'fly Naval-primary air units into a sea area combat (4.4)', options: '`fly UNIT`, then `done`' },
  'free-blitz-sea-combat': { asks: 'in a Free Blitz, whether to fight the sea area combat (2.2, 4.4)', options: '`fight SEA`, `decline SEA`' },
  'frontier-attack': { asks: 'the frontier attack of the turn (E: the Harbin frontier)', options: '`frontier AREA`, `frontier none`' },
  'japan-entry': { asks: 'whether Japan goes to war this turn (F)', options: '`japan war`, `japan wait`' },
  'lend-lease': { asks: 'how much of a Lend Lease delivery is Oil, the rest Resources; secret until the deliveries (7.4, 1.9)', options: '`lend UNIT oil N`, N from the least to the most Oil it may carry' },
  'liberation-move': { asks: 'where a unit barred from a returned country goes, among the closest areas it may stand in (3.4)', options: '`to AREA`' },
  'liberation-return': { asks: 'whether the liberator keeps a liberated country or returns it to its original power (3.4)', options: '`keep COUNTRY`, `return COUNTRY` (a single area: `keep AREA`, `return AREA`)' },
  'liberation-unit': { asks: 'which set-aside unit of a liberated country the liberator takes (3.4)', options: '`take UNIT`' },
  'loot-factory': { asks: "a captured Factory's victory points or its loot (9.9)", options: '`score AREA vp:N`, `loot AREA resources:N oil:N`' },
  'move-pick': { asks: 'pick the next land unit to move, declare war, or finish moving (5.2, 3.2)', options: '`move UNIT`, `declare COUNTRY`, then `done`' },
  'move-step': { asks: 'the next area the moving unit enters, or stop it where it is (5.2)', options: '`to AREA`, `stop`' },
  'new-home-country': { asks: "the new home country of a conquered country's units left on the map (3.4)", options: '`home COUNTRY COUNTRY` (the conquered one, then its new home)' },
  'overrun-destination': { asks: 'where an overrun unit goes (6.6)', options: '`to AREA`' },
  'place-partisan': { asks: 'where a Partisan appears (7.1)', options: '`partisan AREA`, `partisan none`' },
  'rebase-load': { asks: 'units the rebasing transport takes aboard or puts ashore where it is, then go on (5.1)', options: '`load UNIT`, `unload UNIT`, then `go`' },
  'rebase-out-destination': { asks: "where a unit that must leave an ally's area rebases (1.3)", options: '`to AREA`' },
  'rebase-pick': { asks: 'pick the next air or naval unit to rebase, or finish (5.1)', options: '`rebase UNIT`, then `done`' },
  'rebase-to': { asks: 'where the rebasing unit goes (5.1; 7.8 for the A-Bomb)', options: '`to AREA`, `via AREA` (a stop on the way), `carry a-bomb`' },
  'resolve-order': { asks: 'the next announced attack to resolve (5.3)', options: '`resolve AREA`, `resolve AREA factory`, `resolve AREA port`' },
  'retreat-destination': { asks: 'where the retreating unit goes (6.6)', options: '`to AREA`' },
  'retreat-to': { asks: 'where a unit retreats after a frontier attack (E)', options: '`to AREA`' },
  'return-pick': { asks: 'pick the next unit to return to base, or finish (4.1)', options: '`return UNIT`, then `done`' },
  'return-to': { asks: 'where the unit returning to base goes (4.1)', options: '`to AREA`' },
  'return-to-base': { asks: 'an Air Round letter: pick the next air unit sent back to base (6.5)', options: '`rtb UNIT`' },
  'return-to-base-where': { asks: 'where a unit forced back to base from a sea combat goes (4.1, 6.5)', options: '`base AREA`' },
  'road-to-war': { asks: 'the next Road to War option, played before Turn 1 (9.2)', options: '`rtw OPTION` or `rtw OPTION COUNTRY`, as the chart of the pack names them' },
  'sabotage-choice': { asks: 'the saboteur chooses what a Sabotage result 1-3 costs its target at its builds (9.6)', options: '`impose build UNIT`, `impose repair UNIT`, `impose pick UNIT`' },
  'sabotage-partisan': { asks: 'where a Sabotage Partisan appears (9.6)', options: '`partisan AREA`, `partisan none`' },
  'save-split': { asks: 'how much of what is left unspent is saved as Oil, the rest as Resources; secret until the builds are revealed (7.8)', options: '`save N oil N resources`' },
  'sea-combat-order': { asks: 'the next sea area combat to fight (4.4)', options: '`fight SEA`' },
  'sea-destination': { asks: 'where the unit moving to sea goes (4.2)', options: '`to SEA`, `into AREA` (a port)' },
  'sea-embark': { asks: 'land units the transport takes aboard, then finish (4.2)', options: '`embark UNIT`, then `done`' },
  'sea-load': { asks: 'land units the transport loads before it sails (4.2)', options: '`load UNIT`, then `sail`' },
  'sea-pick': { asks: 'pick the next naval unit to move to sea, or finish (4.2)', options: '`sail UNIT`, then `done`' },
  'sea-route': { asks: 'the route to sea where routes differ in what they risk (4.3, 9.8)', options: '`via SEA,SEA,...`' },
  'sub-evasion': { asks: 'SUBs that return to base instead of fighting the sea area combat (4.4)', options: '`evade UNIT`, then `done`' },
  'transport-overloaded': { asks: 'a transport reduced below its cargo: pick the next land unit aboard to lose (6.5)', options: '`lose UNIT`' },
  'vichy-place': { asks: "where a unit in a country France's fall made neutral is placed in its home country (3.4)", options: '`to AREA`' },
  'voluntary-loss': { asks: 'the unit to damage or destroy voluntarily (7.8)', options: '`damage UNIT`, `destroy UNIT`' },
  'voluntary-losses': { asks: 'whether to take voluntary losses after the builds (7.8)', options: '`keep`, `scrap`' },
} as const satisfies Record<string, PromptInfo>;

/** A prompt Blitz! may ask (see {@link DECISION_PROMPTS}). */
export type DecisionPrompt = keyof typeof DECISION_PROMPTS;
