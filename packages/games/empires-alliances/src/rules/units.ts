/**
 * Unit kinds and how they count (3.1, 4.2 of the digest): which units are infantry or cavalry, which
 * are "half a corps", who projects a ZOC. Pure helpers over a counter profile.
 */
import type { Nation, Profile, UnitType } from '../pack/schema.ts';

/** Infantry (Stosstruppen included) and cavalry: the units that hold ground, take losses first (13.72) and advance (13.9). */
export const isInfCav = (t: UnitType): boolean => t === 'inf' || t === 'stoss' || t === 'cav';
/** Infantry only (Stosstruppen are infantry, 16.1): the units 3.71 counts and the ones that entrench (15.21). */
export const isInfantry = (t: UnitType): boolean => t === 'inf' || t === 'stoss';
/** Field and Siege Artillery (17.22 Art RPs; 13.62 pairing). */
export const isArtillery = (t: UnitType): boolean => t === 'fa' || t === 'siege';
/** 5.1/5.2: infantry, cavalry and field artillery project a ZOC; siege, tank and air do not. */
export const projectsZoc = (t: UnitType): boolean => t === 'inf' || t === 'stoss' || t === 'cav' || t === 'fa';
/** Ground units: everything but air. */
export const isGround = (t: UnitType): boolean => t !== 'air';

/** The side a nation fights on in S3. */
export type Side = 'CP' | 'AL';
export const sideOf = (n: Nation): Side => (n === 'GE' || n === 'AH' ? 'CP' : 'AL');

/**
 * Corps equivalents for rail (9.5), sea (11.6) and limited supply (14.4), in halves: a non-US division
 * or a 1-attack artillery unit counts ½, everything else 1 (US divisions are full corps).
 */
export const corpsHalves = (p: Profile): number => ((p.size === 'div' && p.nation !== 'US') || (isArtillery(p.type) && p.attack === 1) ? 1 : 2);

/**
 * Corps equivalents for the entrenchment 50% test (15.24), in halves: non-US divisions ½, artillery and
 * tanks not counted at all (0).
 */
export const entrenchHalves = (p: Profile): number => (p.type === 'fa' || p.type === 'siege' || p.type === 'tank' || p.type === 'air' ? 0 : p.size === 'div' && p.nation !== 'US' ? 1 : 2);

/** 18.4/18.51: the British side of the sector rule (Commonwealth counts as British) and the French side (the US counts as French). */
export const sectorNation = (n: Nation): 'british' | 'french' | 'other' => (n === 'GB' || n === 'CA' || n === 'AU' ? 'british' : n === 'FR' || n === 'US' ? 'french' : 'other');

/** A short label for a counter: `5-7-4 GE stoss`. */
export const profileLabel = (p: Profile): string => `${p.attack}-${p.defense}-${p.move} ${p.nation} ${p.type}${p.size === 'div' ? ' XX' : ''}`;
