import { describe, expect, it } from 'vitest';
import { describeConfig, telemetryConfigFromEnv, withoutUrlCredentials } from '../src/index.ts';

describe('telemetryConfigFromEnv', () => {
  it('defaults to the embedded store and spool under .salient in the working directory', () => {
    expect(telemetryConfigFromEnv({}, '/w')).toEqual({ kind: 'embedded', path: '/w/.salient/clickhouse', spoolDir: '/w/.salient/spool' });
  });

  it('takes paths from the environment, relative ones from the working directory; empty means unset', () => {
    expect(telemetryConfigFromEnv({ SALIENT_CLICKHOUSE_PATH: 'data/ch', SALIENT_SPOOL_DIR: '/var/spool/s', SALIENT_CLICKHOUSE_URL: '' }, '/w')).toEqual({
      kind: 'embedded',
      path: '/w/data/ch',
      spoolDir: '/var/spool/s',
    });
  });

  it('uses a server when SALIENT_CLICKHOUSE_URL is set, with user, password and database', () => {
    expect(telemetryConfigFromEnv({ SALIENT_CLICKHOUSE_URL: 'http://ch:8123/' }, '/w')).toEqual({
      kind: 'server',
      url: 'http://ch:8123',
      username: 'default',
      password: '',
      database: 'salient',
      spoolDir: '/w/.salient/spool',
    });
    const c = telemetryConfigFromEnv(
      { SALIENT_CLICKHOUSE_URL: 'https://ch.example:8443', SALIENT_CLICKHOUSE_USER: 'bob', SALIENT_CLICKHOUSE_PASSWORD: 's3cret', SALIENT_CLICKHOUSE_DATABASE: 'wif_2' },
      '/w',
    );
    expect(c).toMatchObject({ kind: 'server', url: 'https://ch.example:8443', username: 'bob', password: 's3cret', database: 'wif_2' });
    expect(describeConfig(c)).not.toContain('s3cret');
  });

  it("takes credentials out of the URL (percent-decoded) into the config; the URL kept, shown and logged carries none", () => {
    const c = telemetryConfigFromEnv({ SALIENT_CLICKHOUSE_URL: 'http://ana:p%40ss%3Aw%C3%B6rd@ch:8123/' }, '/w');
    expect(c).toMatchObject({ kind: 'server', url: 'http://ch:8123', username: 'ana', password: 'p@ss:wörd' });
    expect(describeConfig(c)).toBe('ClickHouse server http://ch:8123 (user ana, database salient)');
    // A user alone in the URL, the password from its variable; the same user in both is fine.
    expect(telemetryConfigFromEnv({ SALIENT_CLICKHOUSE_URL: 'http://ana@ch:8123', SALIENT_CLICKHOUSE_USER: 'ana', SALIENT_CLICKHOUSE_PASSWORD: 'pw' }, '/w')).toMatchObject({
      url: 'http://ch:8123',
      username: 'ana',
      password: 'pw',
    });
    // Built in code: the same.
    expect(withoutUrlCredentials({ kind: 'server', url: 'http://ana:pw@ch:8123', username: 'default', password: '', database: 'd', spoolDir: '/s' })).toMatchObject({
      url: 'http://ch:8123',
      username: 'ana',
      password: 'pw',
    });
  });

  it.each([
    [{ SALIENT_CLICKHOUSE_URL: 'http://ana:hunter2@ch:8123', SALIENT_CLICKHOUSE_USER: 'bob' }, /SALIENT_CLICKHOUSE_URL names user 'ana' but SALIENT_CLICKHOUSE_USER says 'bob'/],
    [{ SALIENT_CLICKHOUSE_URL: 'http://ana:hunter2@ch:8123', SALIENT_CLICKHOUSE_PASSWORD: 'swordfish' }, /SALIENT_CLICKHOUSE_URL carries a password and SALIENT_CLICKHOUSE_PASSWORD a different one/],
    [{ SALIENT_CLICKHOUSE_URL: 'ftp://ana:hunter2@ch' }, /SALIENT_CLICKHOUSE_URL="ftp:\/\/ana:\*\*\*@ch" is invalid/],
    [{ SALIENT_CLICKHOUSE_URL: 'http://ana:hunter2%zz@ch:8123' }, /The password in SALIENT_CLICKHOUSE_URL is not valid percent-encoding/],
  ])('refuses credentials given twice and differently, or malformed, without showing a password: %j', (env, why) => {
    let error: unknown;
    try {
      telemetryConfigFromEnv(env, '/w');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'BAD_CONFIG', message: expect.stringMatching(why) });
    expect((error as Error).message).not.toMatch(/hunter2|swordfish/);
  });

  it.each([
    ['SALIENT_CLICKHOUSE_URL', 'localhost:8123', /must be an http/],
    ['SALIENT_CLICKHOUSE_URL', 'ftp://ch', /must be an http/],
    ['SALIENT_CLICKHOUSE_DATABASE', 'salient; DROP TABLE x', /plain identifier/],
    ['SALIENT_CLICKHOUSE_USER', '   ', /must not be empty/],
  ])('refuses %s=%j, naming the variable', (name, value, why) => {
    const env = { SALIENT_CLICKHOUSE_URL: 'http://ch:8123', [name]: value };
    let error: unknown;
    try {
      telemetryConfigFromEnv(env, '/w');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'BAD_CONFIG', message: expect.stringContaining(`${name}=${JSON.stringify(value)} is invalid`) });
    expect((error as Error).message).toMatch(why);
  });
});
