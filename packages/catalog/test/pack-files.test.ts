import { describe, expect, it } from 'vitest';
import { formatIssue, issueInFile } from '../src/pack-files.ts';

describe('issueInFile', () => {
  it('turns the first path segment into a file name', () => {
    expect(issueInFile({ path: '$.map.lands[3].terrain', message: 'bad' })).toEqual({ file: 'map.json', path: '$.lands[3].terrain', message: 'bad' });
    expect(issueInFile({ path: '$.map', message: 'missing' })).toEqual({ file: 'map.json', path: '$', message: 'missing' });
    expect(issueInFile({ path: '$["order-of-battle"][2].id', message: 'x' })).toEqual({ file: 'order-of-battle.json', path: '$[2].id', message: 'x' });
  });

  it('keeps pack-wide issues as they are', () => {
    expect(issueInFile({ path: '$', message: 'expected object' })).toEqual({ path: '$', message: 'expected object' });
  });

  it('formats one line per issue and notes missing files', () => {
    expect(formatIssue({ file: 'map.json', path: '$.lands[3]', message: 'bad' }, ['map.json'])).toBe('map.json $.lands[3]: bad');
    expect(formatIssue({ file: 'units.json', path: '$', message: 'required' }, ['map.json'])).toBe('units.json (no such file in the pack) $: required');
  });
});
