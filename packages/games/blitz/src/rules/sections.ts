/**
 * Every section of the Blitz! rulebook (Living Rules, 2021): the full rules 1-8, the optional rules
 * 9.1-9.9 and the short-scenario rules A-F, with how far this code implements each. Titles are our own
 * short descriptions. `salient rules coverage` reads this list, the tests that cite each section, and
 * how often each fired in games played with `traceRules` switched on.
 *
 * A short-scenario section that restates a full rule (`restates`) fires whenever that full rule fires
 * in that scenario: A.6 is 5.3 and 6.1-6.6 as Scenario A plays them.
 */
import type { GameEvent, RuleSection } from '@salient/engine';

type Status = RuleSection['status'];

const core = (id: string, title: string, status: Status, note?: string): RuleSection => ({ id, title, part: 'core', status, ...(note ? { note } : {}) });
const opt = (id: string, title: string, status: Status = 'not-implemented', note?: string): RuleSection => ({ id, title, part: 'optional', status, ...(note ? { note } : {}) });
const scen = (id: string, title: string, status: Status, restates: readonly string[] = [], note?: string): RuleSection => ({
  id,
  title,
  part: 'scenario',
  status,
  ...(restates.length ? { restates } : {}),
  ...(note ? { note } : {}),
});

export const BLITZ_SECTIONS: readonly RuleSection[] = [
  core('1.1', 'The five major powers, their sides and home countries', 'implemented', 'the powers of each scenario (B-E join the AFA and USA as the Western Allies); four in F, all five in the full game'),
  core('1.2', 'What a unit counter shows: type, Size, factors, triangles, movement', "partial", "land, air, AA, BB, CV, SUB, TRS, LL; the A-Bomb as a track entry and a bomb lying in an area or on its carrier (abomb.ts), not a counter of units.json; the V-Weapons (special air units: a Strategic Factor, no Air Factor or primary bombing factor; the V-1 and V-2 counters are estimates) and the '*' of one-shot air units (`oneShot`; the pack marks only the V-Weapons); commanders only with optional rule 9.5 (their counters, `commanders` in units.json, are estimates)"),
  core('1.3', 'The map: land and sea areas, Islands, ports, routes; stacking', 'implemented', 'stacking, Islands, ports and Land/Air Routes; in the full game an ally\'s area only outside its home country, with a shared enemy and none of its land units there (the AFA and USA freely once the USA is at war with the Axis); every way into such an area asks the holder\'s leave (ally-leave.ts: land moves, rebases and a TRS\'s stops, returns to base (also after a sea combat), moves ending in a Port, retreats and overrun moves, and 3.4\'s moves out of a returned country and placements out of a country France\'s fall made neutral; the holder\'s decision, put once the destination is chosen or is the only one, standing for the rest of the impulse for every unit of the mover\'s power: a refused area is not offered again), and the holder\'s air and naval units there then rebase out as overrun units move (6.6: the closest area where each can stack and trace supply within three times its movement, else destroyed), the holder choosing among equals. Our reading where the text is silent: 6.6 sends retreating and overrun units only where they "can stack (see 1.3)", so a refused area is simply not one: a retreat goes elsewhere or takes the extra point of damage, an overrun unit goes to the next closest area or is destroyed, a unit leaving a returned country goes to the next closest area it may stand in, a unit out of a new neutral is placed in another area of its home country or is lost'),
  core('1.4', 'Terrain and weather', 'partial', 'terrain; Snow and Snowflake markers on Snow turns (from D; which turns is an estimate); Snow at sea with an estimated effect (the Snow Effects Chart is not in the text: no air unit fights there)'),
  core('1.5', 'Control of areas and friendly seas', 'implemented', 'land control; a sea is friendly to a side unless an air unit, BB, CV or SUB of a major power at war with the power asking is there and the side has no unit there (a Convoy counting while not destroyed or at its maximum damage); friendly seas are asked only by supply lines (1.7), as the text uses them'),
  core('1.6', 'Neutral territory may not be entered or overflown', 'implemented'),
  core('1.7', 'Supply lines', 'implemented', "switched on per scenario (from D); a unit's line from its power's or its own home country, and while the USA is at war an AFA or USA unit's from the other's home countries too (not for 7.8's builds, which also need supply to an on-map unit); a line to Oil and Resources (7.6, 7.4's last leg, 9.3) may cross land held by a neutral country: a neutral minor, or a neutral major power at war with no one (our reading of 'a neutral country')"),
  core('1.8', 'Halving and rounding', 'implemented'),
  core('1.9', 'Secret, simultaneous turn-end steps', 'implemented', 'the builds and repairs, weapon picks (7.3), research draws, A-Bomb steps, Sabotage attempts (9.6), the Lend Lease choices (7.4), the split of what is saved and the voluntary losses (7.8) are hidden from the other powers (observations) until revealed, then carried out together; the other turn-end steps have no secret part (Neutral Entry, trades, income and the limits follow from the open state; Partisans are one roll and one placement a turn by one side)'),
  core('1.10', 'Terminology', 'definitions'),
  core('1.11', 'Starting a game: set-up, player split, markers', 'partial', 'scenario set-ups from the pack; player splits as a set-up option (F: players 2-4; the full game 2-5); the full game\'s set-up is an approximation of the WDCs (not in the text)'),
  core('2.1', 'Turn sequence: activities, Blitzes, turn end', 'implemented', 'the short scenarios\' turns and the full game\'s fifteen (Activities, Blitzes and the turn end with Partisans, neutral entry, weapons, Lend Lease, income, builds and victory points); a side of several powers does each step power by power (D)'),
  core('2.2', 'Blitz options and their Oil cost; the Free Blitz', 'implemented', 'fixed Blitzes in A and B; chosen and paid in Oil from C; every power of a side announces before any acts (D); a Free Blitz sea combat only at the other side\'s wish; in an Air Blitz only the power\'s air units return to base, move to sea, rebase and fight (no land move, no Ground Attack of its own), its CVs already at sea joining its own Port Attacks, and its air units may join an ally\'s Ground Attack (the AFA and the USA, 5.3)'),
  core('3.1', 'Wars at the start of the game', 'implemented', 'F: Germany against the AFA and Poland, the USA and USSR neutral; the full game\'s war matrix (wars.ts): pairs of powers and minors at war (the AFA and Germany with their allies, Poland the AFA\'s; Japan with China while the USA, China\'s ally, is at peace); with 9.2 as the Road to War leaves them'),
  core('3.2', 'Declaring war and aligning neutral minors', 'implemented', 'on neutral minors (A, F) with the aligning power and protected minors, on neutral major powers with their restrictions (F); with a war matrix, on any enemy power pair by pair, a neutral USSR\'s own declarations, a minor at war with its aggressor alone and the bar on its aligner entering it; Belgium-Netherlands\' colonies with it, split to Japan when an Axis power aligns it; with 9.2 the Road to War\'s pacts and the Monroe Doctrine decide which of these restrictions hold'),
  core('3.3', 'Automatic alignment of neutral minors', 'implemented', 'conditions as data (at war, areas held with or without supply, no coast held, an Axis land unit within four air moves for Argentina and Paraguay-Uruguay), Brazil\'s and Mexico\'s armies to the Force Pool unless an enemy is near, Austria-Czechoslovakia and Iberia liberated and aligned by the Allied major taking them; the Near East, Turkey and Iberia counting only areas Germany itself holds (`own` in the pack: the text says Germany, not the Axis), South-East Asia the Axis side\'s Paris; with 9.2, Austria-Czechoslovakia, Brazil, Mexico, Central Europe and Finland as the Road to War adjusts them'),
  core('3.4', 'Conquest and liberation', 'implemented', 'conquest by every area or by a capital (France: Paris, Italy: Rome), each holder on the side able to trace supply to its areas there (1.7, where the scenario has supply; a country held whole without it waits, `unsupplied`, and falls or is liberated at the first step of play that supply reaches it: the capital\'s holder needs it too, as the text spares only the other areas\' control); the conquered country\'s units set aside (D.5), liberation with a set-aside Small unit of the liberator\'s choice to its Force Pool at once and one more each later turn (Small ones, then Big ones); France\'s first fall and Vichy France (F, the full game: france.ts); the French fleet roll; the liberator (the power of its side holding most of the country\'s areas) keeps a country that was another power\'s or returns it, asked at once (keep/return; a power\'s only home country and those the map marks `returnedWhenLiberated`, Great Britain and Germany, always go back; its units barred from the returned areas move to the closest area they may stand in; kept, the original power\'s units of that country are the liberator\'s); the liberator the power holding most of the country\'s areas, a coin among those tied (a chance node); a single land area the other side took from a power (`lostBy`) and another power of its side takes back, its country not conquered as a whole, is liberated alone (keep/return, or returned where its country would be; our reading where the text is silent: no units come back or change hands with an area, and supply is not asked of a single area); taking back an area your side lost conquers nothing (a colony or minor ally whole again is not conquered), and taking back the last area of such a country the other side conquered liberates it; a new home country for the units left on the map of any conquered country (D, E, F and the full game, where supply or 7.6 reads it), chosen at once by the power running them among its home countries and its minor allies (a country with units of its own, wholly its side\'s, not conquered; one possibility taken at once): their supply lines start there (1.7), and 7.6 counts the new home of a conquered main home\'s units with the main homes for a power with remote homes (the AFA\'s British units: liberation.ts); a conquered country\'s unit on the map set aside with its country when destroyed (D, E, F and the full game: back with the liberation), and not built up from Size 2 to its Big Size 3 meanwhile; France\'s and Italy\'s special cases (the capital alone, France\'s fall and Vichy France) only until each is first liberated (`capitalsSpent`), Vichy France liberated after France rejoining it, its warships to France\'s liberator; a unit left in a country France\'s fall made neutral placed in an area of its home country (the new home, if that was conquered) where its side holds it, the owner choosing (`vichy-place`), else lost; a liberator\'s units barred from a returned country moving out at once to a closest area they may stand in, the owner picking among equals (`liberation-move`); both asking an ally holder\'s leave (1.3); a major power controlling no unconquered country (its own home countries, or a minor ally: a country of no major power, not conquered, where it holds an area and the rest is its side\'s or was taken from it) out of the game (`out`) until it controls one again, as when an ally returns one it liberated: no impulses (a side with none in the game has none), no income or builds (its savings wait), no VP gained; our reading where the text is silent: its units left on the map stay, doing nothing of their own, and still defend where they stand, its seat answering only for them'),
  core('3.5', 'Destroyed Convoys', 'implemented', 'home-country and area conditions, the Japan-S.China Convoy\'s trade condition (E.3), the Ger-Swe Convoy while neither Norway nor Sweden provides Germany a Resource (the pack\'s `fedBy`: a neutral minor\'s trade, or a Resource area the power holds; our reading: holding it is enough, supply is not asked)'),
  core('4.1', 'Return to base', 'implemented', 'returns within range; a unit with bases only out of range made to return to the closest (owner\'s choice among equals), one with none at all destroyed, one whose only base in range cannot trace supply sent back to it, each as its side\'s return step begins'),
  core('4.2', 'Move to a sea area, transports', 'implemented', "moves ending at sea or in a friendly Port; TRS loading and embarking (the AFA and the USA carrying each other's land units once the USA is not neutral, Chinese land units never); SUBs through the straits the map opens to them (which ones is the pack's reading of the map note: Gibraltar)"),
  core('4.3', 'Blocking and blockade of naval moves', 'implemented', "in scenarios with sea combat (from C); SUBs, air units and returns to base never blocked. The route of a move to sea is the player's where routes differ in what they risk: routes are compared by the tests they meet in order (a blockade roll leaving a given sea at a given value; with 9.8, a forced strait), those meeting the same tests are one route (the shortest, then the first by code points), and a route meeting every test another meets and more is dropped; one route left is taken without asking (so a way clear of blockaders is always taken), several are offered (sea-route, `via SEA,SEA`, in code-point order)"),
  core('4.4', 'Sea area combat', 'implemented', 'in scenarios with sea combat (from C); Snow at sea as estimated in 1.4'),
  core('5.1', 'Rebase air and naval units', 'implemented', 'a TRS may rebase in legs within its movement, putting land units ashore and taking more aboard in Ports on the way, and ends only where its cargo can stand (1.3); a PARA carried so may not also rebase by air'),
  core('5.2', 'Move land units', 'partial', 'moves, terrain costs, Land Routes, unloading from a TRS, supply judged as each unit starts; China entry (E.1; in the full game only the AFA and USA open it, by two of Formosa, Manila and South-East Asia while the USA is not neutral, and the USSR for its own units by Harbin and Port Arthur); a neutral major power\'s land units other than GARs stay in their home country. Approximated: the powers of a side move one after another, so two of them never move into the same empty enemy area at once (6.6\'s priority is not needed: the first takes it)'),
  core('5.3', 'Land area combat: announce, defend, resolve', 'partial', "Ground, Factory and Port Attacks, each kind once per area, several kinds by one power; no two powers of a side on one area except the AFA and the USA (USA at war, both at war with the holder), who may also join each other's attacks (the powers of a side announce in turns, in scenario order, going round again after any round that brought a new attack or unit, so the AFA can join what the USA announced after it; a round of passes ends it); every power of the defending side commits its support in turn, in scenario order, whether the attacking side is one power or several; Snow; A-Bomb carriage (abomb.ts) by an air unit with Strategic 4 or more based where the bomb lies (7.8: it may pick the bomb up at the start of a rebase or at a stop on its way, `via`, and sets it down where the rebase ends), or for Germany by a V-Weapon with Strategic 4 or more (the pack's V-2), which only ever flies in Factory Attacks (our reading of 6.1), its effect on the target an estimate of the pack (the Unit Types Chart is not in the text); powers that cannot agree are not modelled (the first to announce goes ahead)"),
  core('6', 'Combat basics: factor totals, the minimum of 1', 'implemented', "one-shot ('*') air units that took part in a round (of a land or a sea area combat) are destroyed, to the Force Pool and no enemy's kill, before its results apply; the pack marks only the V-Weapons"),
  core('6.1', 'Air Round', 'implemented', 'V-Weapons never take part (nor trigger one); they join only Factory Attacks and always reach the Strategic Round'),
  core('6.2', 'Land Round', 'implemented'),
  core('6.3', 'Naval Round', 'implemented', 'sea area combat and Port Attacks; in a Port Attack only the attackers fire (5.3: ships in port cannot), carriers at half their Naval Factors, and letter results are ignored (6.5)'),
  core('6.4', 'Strategic Round', 'implemented', 'with the V-Weapons, which fly in automatically (6.1) and are used up there (one-shot)'),
  core('6.5', 'Applying results: damage, letters, alternating picks', 'implemented', 'numbers before letters, the phasing side first, owner and enemy picking in turn, in land, air, naval and Strategic Rounds; Convoys (at most their Convoy Factor a turn, a point of damage instead of a return to base), a TRS reduced below its cargo, one-shot units, the A-Bomb with its carrier, ignored letters (Factory and Port Attacks, attacks on Islands); where a side has units of several powers in a round (a joint AFA/USA attack or defence, a shared sea combat), its picks are made by its power whose units bring the most Factors to that round (each unit\'s own modified Factors: air support cut by the support cap in proportion, the triangles counted for no power). Our readings: the owner\'s first pick, which the text gives to "you", goes the same way; a tie, which the text does not settle, goes to the attacking power or the area\'s holder if tied, else to the tied power first in the side\'s order; a CV whose counter shows a BB on the side its losses flip it to is a BB from then on, still counted as air for that Air Round\'s returns to base (a side\'s `type` in the pack; the bundled carriers have none, their counters not being in the text)'),
  core('6.6', 'Change of control: ARM test, retreat, advance, overrun', 'implemented', "after a joint AFA/USA Ground Attack the power with the most Land Factors advancing, then the one with the largest unit, takes control; a tie beyond that is a coin toss (a chance node of two faces, the powers in code-point order); on a side of several powers its power with the most Land Factors in the battle picks the units that retreat or may not advance (a tie as in 6.5); an overrun unit goes to the closest area within three times its movement where it can stack and a supply line of its own reaches (1.7), the taker choosing among equals, else it is destroyed"),
  core('7.1', 'Partisans', 'partial', 'the roll, the placement and the lost income (the table is an estimate); China, where either side may place one (the Axis first); on a face of several countries the side placing for the first one with an open area picks the country, placing in an open area of any country of the face it places for (our reading: one Partisan a roll, so the other side places none)'),
  core('7.2', 'Neutral entry of the USA and USSR', 'partial', 'It\'s War! markers, chart events (estimates: the chart is not in the text), the war box and turn, the floor paying the Axis; in F a neutral power takes no activities, with a war matrix it acts within its home country (4.2, 5.1, 5.2)'),
  core('7.3', 'New weapons development', 'partial', "the full game: one Weapons Development Chart per major power (1.11), a list of Groups that both the picks and the research draws (7.8) come from, a Group at a time, as many picks a turn as the current Group allows (7.3's example: a Group 3 pick uses up Group 4's one a turn); C.6 and D.7 pick from their Future Additions lists and E/F research from separate Groups, as their short charts have it. A minor country's unit goes to the Force Pool of the side's major power allied with that country, or, while the country is neutral, conquered or enemy-allied, is set aside (it comes back to the Force Pool of the side's power the country allies with, 3.2/3.3, or with 3.4's liberation) or removed from the game (not counted as a pick). Groups, their units and the picks a turn are estimates (the WDCs are not in the text), bar the USSR's Group 3 Polish Air Force and its one a turn from Group 4; the A-Bomb's Group is a turn in the pack instead of a place on the chart"),
  core('7.4', 'Lend Lease', 'implemented', 'deliveries with every condition; each giver chooses, in secret at the turn end, how much of each delivery is Oil (`lend UNIT oil K`); the Bay of Bengal LL to China (E.4) gives a Resource only'),
  core('7.5', 'Trade agreements', 'implemented', 'neutral minors\' trades while neutral, a major power\'s trade ending at war or at a marker box (F); with 9.2 the Road to War\'s options make the trades instead (road-to-war.ts)'),
  core('7.6', 'Determining Oil and Resources', 'implemented', "B.7 income from areas held; C.7 income from the chart; D: the 7.6 steps with supply, Partisans, Convoy and Factory damage (losses taken only from what step 1 brought in), Lend Lease and trades (step 5: a trade only with a supply line from its recipient to the country it comes from, 1.7); lines to Oil and Resources crossing neutral land (1.7); the AFA's dominions counted with supply (remoteHome) in step 1, except the one chosen as the new home of British units once Great Britain is conquered (3.4), which joins France in step 4 (a minor ally chosen as that home too); an isolated ally's income (steps 1, 2 and 6 on its own, for its units only, not saved; step 5 not applied to it); with no main home country held (Great Britain fallen with no British unit left to need a new home, France fallen too) every home country counts as home"),
  core('7.7', 'Limits on neutral major powers', 'implemented', 'by the It\'s War! box while neutral; with 9.2 also a USSR that declared war on Germany, until Germany declares war on it, holds a Soviet area or Turn 8 begins'),
  core('7.8', 'Spending Resources: building, research, the A-Bomb', 'partial', 'builds and repairs (B.7, C.7; from D an on-map unit only with a supply line of its power to it, the AFA and the USA not from each other\'s home countries), Oil saved in C, Oil and Resources saved (the split chosen by the power) and one free GAR a turn in D, research in E; the A-Bomb (abomb.ts): picked from an estimated turn (the WDC Groups are not in the text), developed and tested once each a turn, +1 once A-bombed, built at home and rebuilt with no test, all secret until the reveal, picked up by a Strategic-4 air unit where it lies, also in the middle of a rebase; last, the voluntary damage or destruction of any of the power\'s own on-map units, supplied or not (voluntary.ts: a keep/scrap question, then the unit; secret, carried out at the reveal after the builds, no VP to anyone; not in B, whose special rule forbids it)'),
  core('8', 'Victory points and the end of the game', 'partial', 'Victory Card objectives as data (D; the cards are not in the text, so each objective is an estimate), the 15-VP end, most VP after the last turn, averages over the powers each player runs (F, the full game); Join Atomic Club at the first successful A-Bomb test (E, F, the full game; 3 VP each for the first two joiners as the illustration gives, the rest of the ladder estimated); bids with 9.1; No Casualties from the losses of the combat that took an area; Super Weapons (D, F, the full game; estimated: 1 VP at each turn end in which Germany built a V-Weapon)'),
  // Section 9 is switched on rule by rule with the full game's set-up option `optional` (optional.ts).
  opt('9.1', 'Bidding for sides', 'implemented', "the bids are fixed at set-up (option 'bids', one per player grouping, +3 to -3, summing to zero), standing for the auction that bots cannot hold; each is added to its player's average when the game is over"),
  opt('9.2', 'Blitzing the Road to War', 'partial', "a set-up phase before Turn 1 (road-to-war.ts): steps 1-13 in order, each major power picking one Option a step (open decisions of its seat, in the card's order), one listed for it at the step or any of the six Standard Options; every fact 9.2 states: Poland neutral at the start, Germany and the AFA at war at the end, China neutral under Don't Invade China (no Trade Agreement with it; an Axis declaration allies it with the USA, an Allied declaration on Japan with Japan, as the text says), allied minors declarable only with their power, Germany's 3.2 restriction on the USSR only with the Secret German Pact and the USSR's only with the Secret Soviet Pact (then covering Germany's allies and trading partners), the USSR's 7.7 limit kept after it declares war on Germany until Germany declares war on it, holds a Soviet area or Turn 8 begins, the Allied restriction on Brazil, Chile, Mexico and Venezuela only with the Monroe Doctrine, 3.3 adjusted (Austria-Czechoslovakia only if annexed, Brazil and Mexico with the Monroe Doctrine, Central Europe and Finland with the Anti-Comintern Pact Expanded), 7.5's trades replaced by the options' (the Near East's gives 1 Oil), Army Group North in Western Germany without the annexation, the Corregidor FORT in Manila, Liberate Foes never freeing a major power's home country. Approximated: the card (the pack's roadToWar, every option but the named ones an estimate: the other options, the six Standard Options, their effects, the picking order); Liberate Foes' effect (a minor Germany conquers becomes its ally instead)"),
  opt('9.3', 'Minor ally builds', 'implemented', "a country owes a Resource while its power holds an area there with a Resource that yields income this turn (at home or in supply); China's earmarked income (E.4) already goes to Chinese units and is left out"),
  opt('9.4', 'Attacking along a Land Route', 'implemented', 'one Small land unit (Size 1-2) in each Ground Attack may come across a Land Route; its Land Factors are halved after every other modifier'),
  opt('9.5', 'Commanders', 'implemented', "the Commander counters are not in the rulebook text: the pack's (units.json `commanders`, two a major power) are estimates built around what 9.5 states (Manstein a Land Commander with red Land triangles; Novikov derived from the LRA example). One a turn at the builds while at war with an enemy major power (`commander FACE LAND`, then `command UNIT|none`), public at once; at the start of each Activities and Blitz phase the supply check, then `commander FACE AREA` once per commander (land areas in supply; a sea only where a unit of the face's letter is) or `commanders done`. Readings: a unit has one commander at most; the commander's movement letter adds no movement; in a Strategic Round a commanded unit with Strategic Factors adds half its Land Factors (the example's 5); a commander goes back when its unit leaves the map in any way or passes to another power"),
  opt('9.6', 'Sabotage', 'partial', "one attempt a turn against each enemy major power at war with the saboteur, for a Resource of its build budget. Approximated: results 5 and 6 come off what the target saves once every power has built (the builds are simultaneous, 1.9), the Factory Attack being rolled when the sabotage is; result 1 lets the saboteur choose the unit the target's first Resource builds or repairs (one Size; not a GAR, which 7.8 builds free) and the target still places it; result 2 lets it choose which GAR the target builds free (at full Size), the target placing it; result 3 lets it choose the target's first Future Addition (this pack's 7.3 picks, not a research draw); each applies only before the target's own first choice at the next builds, else it lapses"),
  opt('9.7', 'Non-motorized Land Blitz', 'implemented', "the option 'blitz nonmotorized' pays a saved Resource; the first ARM, air or naval unit that moves or is committed to a combat in it is the one, and every other such unit of that power is held back; an air or naval unit may not open a Ground Attack that only ARM could join (it would strand the attack)"),
  opt('9.8', 'Forced passage of straits', 'implemented', "a closed strait marked forcible (never Egypt's) may be forced by a naval unit moving to sea (4.2) or returning to base (4.1), including a return sent by a letter result in a sea combat (6.5) or made by a SUB avoiding one (4.4), which 6.5 and 4.4 both call returns to base (4.1), and a return to the closest base beyond range (4.1): a 7-factor die on the Combat Chart at the crossing, its number as damage, an L sending the ship back to where its move began (for a return, the sea it left; one leaving a sea combat then takes no further part in it). On a move to sea a route forcing a strait is offered beside one running a blockade (4.3); a return is never blocked, and every forced crossing carries the same odds and the same outcome, so its route is the one with fewest crossings, then the shortest, then by name, and no choice is asked. Our reading: an overrun ship (6.6, and a ship leaving an area as an overrun one does, 1.3, 3.4) and a rebase (5.1) keep to open straits: 9.8 speaks of moves of the naval movement phase and of returns to base, an overrun is neither, and its L result (back to the base where the move began) has no meaning for a ship whose base has just been taken"),
  opt('9.9', 'Looting', 'implemented', 'the captor chooses at once, Factory by Factory, its VP or for each of them 2 saved Resources or 1 saved Oil; a looted Factory lost still costs its VP, even below zero'),
  scen('A', 'Scenario A: Blitz of Western Europe (set-up, turns, victory)', 'implemented'),
  scen('A.1', 'A: declaring war on Belgium-Netherlands', 'implemented', ['3.2']),
  scen('A.2', 'A: conquest', 'implemented', ['3.4']),
  scen('A.3', 'A: rebasing air units', 'implemented', ['5.1']),
  scen('A.4', 'A: moving land units', 'implemented', ['5.2']),
  scen('A.5', 'A: the overseas move from London to Paris', 'implemented'),
  scen('A.6', 'A: land area combat', 'implemented', ['5.3', '6.1', '6.2', '6.5', '6.6']),
  scen('A.7', 'A: reinforcements after Turn 1', 'implemented'),
  scen('A.8', 'A: the German Land Blitz and the AFA Free Blitz', 'implemented', ['2.2']),
  scen('B', 'Scenario B: The Longest Day (set-up, turns, victory)', 'implemented'),
  scen('B.1', 'B: return to base', 'implemented', ['4.1']),
  scen('B.2', 'B: move to a sea area', 'implemented', ['4.2']),
  scen('B.3', 'B: rebasing air and naval units', 'implemented', ['5.1']),
  scen('B.4', 'B: moving land units, landing from transports', 'implemented', ['5.2']),
  scen('B.5', 'B: land area combat, amphibious attacks and naval support', 'implemented', ['5.3', '6.1', '6.2', '6.5', '6.6']),
  scen('B.6', 'B: the German Land Blitz and the Western Allied Total Blitz', 'implemented', ['2.2']),
  scen('B.7', 'B: income and building units', 'implemented', ['7.6', '7.8']),
  scen('C', 'Scenario C: The Battle of the Atlantic (areas in play, frozen control, victory points)', 'implemented', [], 'victory points and set-up are estimates: the set-up chart is not in the text'),
  scen('C.1', 'C: return to base, air units too', 'implemented', ['4.1']),
  scen('C.2', 'C: move to a sea area, air units too (a sea costs 2)', 'implemented', ['4.2']),
  scen('C.3', 'C: blocking enemy naval moves', 'implemented', ['4.3']),
  scen('C.4', 'C: sea area combat', 'implemented', ['4.4', '6.3']),
  scen('C.5', 'C: Free or Naval Blitz, paid in saved Oil', 'implemented', ['2.2']),
  scen('C.6', 'C: one new weapon a turn, the Western Allies twice two for an Oil', 'implemented', ['7.3'], 'Future Additions lists are estimates (the WDCs are not in the text)'),
  scen('C.7', 'C: building with the chart\'s Oil and Resources, Oil saved', 'implemented', ['7.6', '7.8'], 'the chart\'s income is an estimate'),
  scen('C.8', 'C: the conquest of Italy on Turn 7', 'implemented'),
  scen('D', 'Scenario D: Barbarossa (three powers, special rules, victory points)', 'implemented', [], 'set-up, Snow turns, force pools and Victory Card objectives are estimates: the set-up chart and cards are not in the text'),
  scen('D.1', 'D: the map and stacking', 'implemented', ['1.3']),
  scen('D.2', 'D: terrain, weather and halving', 'implemented', ['1.4', '1.8']),
  scen('D.3', 'D: supply lines', 'implemented', ['1.7']),
  scen('D.4', 'D: every Blitz option, paid in Oil', 'implemented', ['2.2']),
  scen('D.5', 'D: conquest', 'implemented', ['3.4']),
  scen('D.6', 'D: Factory Attacks', 'implemented', ['6.4']),
  scen('D.7', 'D: new weapons development', 'partial', ['7.3'], 'one pick a turn from estimated Future Additions; no research'),
  scen('D.8', 'D: Lend Lease', 'implemented', ['7.4']),
  scen('D.9', 'D: determining Oil and Resources', 'implemented', ['7.6']),
  scen('D.10', 'D: spending Resources', 'implemented', ['7.8']),
  scen('D.11', 'D: victory and the end of the game', 'implemented', ['8'], 'objectives are estimates'),
  scen('E', 'Scenario E: Empire of the Rising Sun (areas in play, Harbin, extra Resources, victory points)', 'implemented', [], 'set-up, Groups and Victory Card objectives are estimates: the set-up chart and cards are not in the text'),
  scen('E.1', 'E: moving land units, China entry', 'implemented', ['5.2']),
  scen('E.2', 'E: land area combat, Port Attacks', 'implemented', ['5.3'], 'only the attackers fire in a Port Attack, and its letters are ignored (5.3, 6.3, 6.5)'),
  scen('E.3', 'E: the Naval Round and Convoys', 'implemented', ['6.3']),
  scen('E.4', 'E: Oil and Resources, China\'s income', 'implemented', ['7.6']),
  scen('E.5', 'E: spending Resources, research and the A-Bomb', 'implemented', ['7.8'], 'research; the A-Bomb (abomb.ts), which the Western Allies may pick from Turn 8 and Japan from Turn 12 (pack estimates: the WDCs are not in the text)'),
  scen('F', 'Scenario F: The Rise and Fall of Fascism (areas in play, Japan, Harbin, player splits)', 'implemented', [], 'set-up, charts and Victory Card objectives are estimates: the set-up chart, WDCs and cards are not in the text'),
  scen('F.1', 'F: declaring war', 'implemented', ['3.2']),
  scen('F.2', 'F: allying with a neutral minor', 'implemented', ['3.3']),
  scen('F.3', 'F: conquest and liberation', 'implemented', ['3.4'], "F.3's summary offers only another home country as the new home of a conquered country's units; the full rules (3.4, and D.5) add minor allies, and the full rules prevail, so they are offered here too"),
  scen('F.4', 'F: Partisans', 'partial', ['7.1']),
  scen('F.5', 'F: neutral entry', 'partial', ['7.2']),
  scen('F.6', 'F: trade agreements', 'implemented', ['7.5']),
  scen('F.7', 'F: neutral major power limits', 'implemented', ['7.7']),
  scen('F.8', 'F: victory and the end of the game', 'implemented', ['8']),
  core('full', 'The full game: fifteen turns, five major powers', 'partial', 'the whole world, five powers and seats, 2-5 player splits, wars pair by pair (wars.ts), the USA and USSR entering by 7.2, Vichy France and its fleet roll (3.4), the optional rules 9.1-9.9 (option optional); the A-Bomb and Join Atomic Club (abomb.ts; turns, effect and ladder beyond the second joiner estimated); new weapons from each power\'s Weapons Development Chart (7.3, 7.8: Groups estimated)'),
];

const KNOWN = new Set(BLITZ_SECTIONS.map((s) => s.id));
/** Full section -> the scenario sections restating it, by scenario. */
const RESTATED = new Map<string, Map<string, string>>();
for (const s of BLITZ_SECTIONS) {
  for (const full of s.restates ?? []) {
    let byScenario = RESTATED.get(full);
    if (!byScenario) RESTATED.set(full, (byScenario = new Map()));
    byScenario.set(s.id.slice(0, 1), s.id);
  }
}

let tracer: ((section: string) => void) | undefined;

/** Send every rule firing to `onFire` (or stop, with `undefined`). Used by `salient rules coverage`. */
export function traceRules(onFire: ((section: string) => void) | undefined): void {
  tracer = onFire;
}

/**
 * Rule `section` was applied in `scenario`. A no-op unless tracing; it never touches the game state,
 * so tracing cannot change a game.
 */
export function fired(section: string, scenario?: string): void {
  if (!tracer) return;
  if (!KNOWN.has(section)) throw new Error(`fired: unknown rule section ${section}`);
  tracer(section);
  const mirror = scenario === undefined ? undefined : RESTATED.get(section)?.get(scenario);
  if (mirror) tracer(mirror);
}

/** The rule each kind of event reports: most rules show themselves in the events they emit. */
const EVENT_SECTIONS: Readonly<Record<string, string>> = {
  'move-to-sea': '4.2',
  embark: '4.2',
  disembark: '5.1',
  rebase: '5.1',
  move: '5.2',
  'attack-announced': '5.3',
  'defence-committed': '5.3',
  'attack-joined': '5.3',
  'attack-called-off': '5.3',
  'combat-start': '6',
  'convoy-damage': '6.5',
  stranded: '4.1',
  'cut-off-base': '4.1',
  overloaded: '6.5',
  loss: '6.5',
  elimination: '6.5',
  'one-shot': '6',
  retreat: '6.6',
  advance: '6.6',
  overrun: '6.6',
  'ally-leave': '1.3',
  'control-coin': '6.6',
  'rebase-out': '1.3',
  capture: '1.5',
  conquest: '3.4',
  liberation: '3.4',
  declaration: '3.2',
  reinforcement: 'A.7',
  'reinforcement-lost': 'A.7',
  build: '7.8',
  repair: '7.8',
  'voluntary-loss': '7.8',
  income: '7.6',
  turn: '2.1',
  'italy-exits': 'C.8',
  'sea-combat-declined': '2.2',
  'lend-lease': '7.4',
  'factory-damage': '6.4',
  handover: 'D',
  'handover-move': 'D',
  'vichy-move': '3.4',
  'vichy-rejoins': '3.4',
  disband: 'D',
  'dormant-army': 'D',
  'set-aside': '3.4',
  'french-fleet': '3.4',
  'liberation-unit': '3.4',
  'liberation-keep': '3.4',
  'liberation-return': '3.4',
  'liberation-move': '3.4',
  'out-of-game': '3.4',
  'back-in-game': '3.4',
  'new-home': '3.4',
  frontier: 'E',
  'extra-resources': 'E',
  research: '7.3',
  'weapon-removed': '7.3',
  'set-aside-return': '7.3',
  'a-bomb': '7.8',
  'its-war': '7.2',
  'war-entry': '7.2',
  alignment: '3.3',
  partisans: '7.1',
  'japan-at-war': 'F',
  'trade-ends': '7.5',
  'road-to-war': '9.2',
  'road-to-war-ends': '9.2',
  annexation: '9.2',
  'neutral-china': '9.2',
  'production-limit-ends': '9.2',
};

/** Whether rule firings are being traced (so callers can skip work that only tracing needs). */
export function tracing(): boolean {
  return tracer !== undefined;
}

/** Report the rules behind `events`, emitted in `scenario`. */
export function firedByEvents(events: readonly GameEvent[], scenario: string): void {
  if (!tracer) return;
  for (const e of events) {
    if (e.type === 'return-to-base') fired(e.data && 'from' in e.data ? '4.1' : '6.5', scenario);
    else if (e.type === 'victory') fired(scenario, scenario);
    else {
      const section = EVENT_SECTIONS[e.type];
      if (section) fired(section, scenario);
    }
  }
}
