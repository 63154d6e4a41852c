import { describe, expect, it } from 'vitest';
import { redactDeep, redactSecrets } from '../src/index.ts';

describe('redactSecrets', () => {
  it.each([
    ['http://salient:s3cret@127.0.0.1:8123', 'http://salient:***@127.0.0.1:8123'],
    ['Cannot reach redis://:p%40ss@host:6379/0 now', 'Cannot reach redis://:***@host:6379/0 now'],
    // the password runs to the last @ before the host, as URL parsers read it
    ['"http://u:p@ss@h/x"', '"http://u:***@h/x"'],
    ['POST /api/x?token=abc&scenario=A&access_token=zz', 'POST /api/x?token=***&scenario=A&access_token=***'],
    ['/a?API_KEY=1&apikey=2&Password=3&client_secret=4&X-Amz-Signature=5&auth=6', '/a?API_KEY=***&apikey=***&Password=***&client_secret=***&X-Amz-Signature=***&auth=***'],
    ['/a?to%6Ben=1', '/a?to%6Ben=***'],
    ['authorization: Bearer abc.DEF-12_3~+/=', 'authorization: Bearer ***'],
    ['Basic dXNlcjpwYXNz', 'Basic ***'],
  ])('masks %j', (text, masked) => {
    expect(redactSecrets(text)).toBe(masked);
  });

  it.each([
    'http://user@host:8123',
    'https://example.com/a?b=c&scenario=A',
    'send Authorization: Bearer <token> with one of the write tokens',
    '{"a":"http://u:p","b":"x@y"}',
  ])('leaves %j as it is', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it('masks every string inside a value, keys kept', () => {
    expect(redactDeep({ msg: 'queue error', error: 'at redis://:pw@h:1', n: 3, list: ['?token=x'] })).toEqual({ msg: 'queue error', error: 'at redis://:***@h:1', n: 3, list: ['?token=***'] });
  });
});
