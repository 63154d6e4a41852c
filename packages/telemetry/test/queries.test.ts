/** The parts of the queries that need no ClickHouse: length statistics and the read-only check. */
import { describe, expect, it } from 'vitest';
import { lengthStats, readOnlyStatement } from '../src/index.ts';

describe('lengthStats', () => {
  it('gives exact mean and nearest-rank quantiles from (value, count) pairs', () => {
    // 10 matches: 3x2 turns, 5x3, 2x7
    expect(lengthStats([[2, 3], [3, 5], [7, 2]])).toEqual({
      matches: 10,
      mean: (6 + 15 + 14) / 10,
      p50: 3,
      p90: 7,
      min: 2,
      max: 7,
      buckets: [
        { from: 2, to: 2, count: 3 },
        { from: 3, to: 3, count: 5 },
        { from: 7, to: 7, count: 2 },
      ],
    });
  });

  it('groups wide spreads into at most 20 equal buckets', () => {
    const values = Array.from({ length: 100 }, (_, i) => [100 + i * 3, 1] as [number, number]);
    const s = lengthStats(values);
    expect(s.buckets.length).toBeLessThanOrEqual(20);
    expect(s.buckets.reduce((a, b) => a + b.count, 0)).toBe(100);
    expect(s.buckets[0]).toEqual({ from: 100, to: 114, count: 5 });
    expect(s.p50).toBe(100 + 49 * 3);
  });

  it('is all zeros for no matches', () => {
    expect(lengthStats([])).toEqual({ matches: 0, mean: 0, p50: 0, p90: 0, min: 0, max: 0, buckets: [] });
  });
});

describe('readOnlyStatement', () => {
  it.each([
    ['SELECT 1', 'SELECT 1'],
    ['  select 1 ;  ', 'select 1'],
    ["SELECT ';' AS s; -- done", "SELECT ';' AS s"],
    ['(SELECT 1) UNION ALL (SELECT 2)', '(SELECT 1) UNION ALL (SELECT 2)'],
    ['-- hello\nWITH 1 AS x SELECT x', '-- hello\nWITH 1 AS x SELECT x'],
    ['show tables', 'show tables'],
    ['DESC matches', 'DESC matches'],
    ["SELECT 'INTO OUTFILE', `SETTINGS x = 1`, 'file(' /* url( */", "SELECT 'INTO OUTFILE', `SETTINGS x = 1`, 'file(' /* url( */"],
    ['SELECT 1 AS settings, files FROM t', 'SELECT 1 AS settings, files FROM t'],
  ])('accepts %j', (sql, statement) => {
    expect(readOnlyStatement(sql)).toBe(statement);
  });

  it.each([
    ['DROP TABLE matches', /starts with DROP/],
    ['SELECT 1; SELECT 2', /one statement/],
    ["SELECT 'it\\'s'; TRUNCATE TABLE matches", /one statement/],
    ['/* SELECT */ OPTIMIZE TABLE matches', /starts with OPTIMIZE/],
    ['   ', /empty/],
    ['-- SELECT', /empty/],
    // ClickHouse's comments: `#` to the end of the line, block comments nested.
    ["SELECT 1 # it's a comment\n; DROP TABLE matches", /one statement/],
    ['SELECT 1 /* a /* nested */ ; */ ; DROP TABLE matches', /one statement/],
    ['SELECT $x$ heredoc; $x$ ; DROP TABLE matches', /one statement/],
    ["select 1 into/**/OUTFILE 'x'", /Query refused\. INTO OUTFILE would write a file/],
    ["SELECT 1 -- c\n INTO\n OUTFILE 'x'", /INTO OUTFILE/],
    ['SELECT 1 SETTINGS readonly = 0', /SETTINGS clause/],
    ["SELECT * FROM url('http://x/', 'CSV')", /Query refused\. url\(\) reads outside the store/],
    ["SELECT * FROM File ('/etc/passwd')", /File\(\) reads outside the store/],
  ])('refuses %j', (sql, why) => {
    expect(() => readOnlyStatement(sql)).toThrow(why);
  });
});
