import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_TIMEOUT } from '../../../tools/sdk/types';
import { parseManifest } from './tool-manifest';

const valid = { name: 'echo_args', description: 'Echo arguments.\nUse when testing.' };

function reason(raw: unknown): string {
  const result = parseManifest(typeof raw === 'string' ? raw : JSON.stringify(raw));
  return result.ok ? 'ok' : result.reason;
}

describe('parseManifest', () => {
  it('maps every field and fills the defaults', () => {
    const full = parseManifest(
      JSON.stringify({
        ...valid,
        parameters: {
          type: 'object',
          properties: { q: { type: 'string', description: 'query' } },
          required: ['q'],
        },
        always_allow: true,
        concurrent: true,
        timeout: 1.5,
        secrets: ['API_KEY', 'API_KEY', 'OTHER'],
        writable: ['~/out', 'cache', '~/out'],
      }),
    );
    expect(full).toMatchObject({
      ok: true,
      manifest: {
        name: 'echo_args',
        alwaysAllow: true,
        concurrent: true,
        timeoutMs: 1500,
        secrets: ['API_KEY', 'OTHER'],
        writable: ['~/out', 'cache'],
      },
      warnings: [],
    });
    expect(parseManifest(JSON.stringify(valid))).toMatchObject({
      ok: true,
      manifest: {
        parameters: { type: 'object', properties: {} },
        alwaysAllow: false,
        concurrent: false,
        timeoutMs: DEFAULT_TOOL_TIMEOUT,
        secrets: [],
        writable: [],
      },
    });
  });

  it('warns about each unknown key, saying why it does nothing or what was meant, but still loads', () => {
    const result = parseManifest(
      JSON.stringify({ ...valid, alwaysAllow: true, background: true, colour: 'red' }),
    );
    expect(result).toMatchObject({
      ok: true,
      warnings: [
        'tool.json: unknown key "alwaysAllow" is ignored (did you mean "always_allow"?)',
        'tool.json: unknown key "background" is ignored (script tools always run in the foreground; the agent waits for the result)',
        expect.stringMatching(
          /^tool\.json: unknown key "colour" is ignored \(known keys: name, description, /,
        ),
      ],
    });
  });

  it('gives a reason naming the field for each kind of mistake', () => {
    expect(reason('{"name": "x",')).toMatch(/^malformed JSON: /);
    expect(reason([valid])).toBe('tool.json must hold a JSON object');
    expect(reason({ ...valid, name: undefined })).toBe('"name" must be a non-empty string');
    expect(reason({ ...valid, name: 'has space' })).toMatch(/^"name" may hold only letters/);
    expect(reason({ ...valid, name: 'x'.repeat(58) })).toMatch(/^"name" is longer than 57/);
    expect(reason({ ...valid, description: 3 })).toBe('"description" must be a non-empty string');
    expect(reason({ ...valid, parameters: [] })).toBe('"parameters" must be a JSON Schema object');
    expect(reason({ ...valid, parameters: { type: 'string' } })).toBe('"parameters.type" must be "object"');
    expect(reason({ ...valid, parameters: { properties: { a: 1 } } })).toBe(
      '"parameters.properties.a" must be a JSON Schema object',
    );
    expect(reason({ ...valid, parameters: { required: 'a' } })).toBe(
      '"parameters.required" must be an array of property names',
    );
    expect(reason({ ...valid, always_allow: 'yes' })).toBe('"always_allow" must be true or false');
    expect(reason({ ...valid, concurrent: 1 })).toBe('"concurrent" must be true or false');
    expect(reason({ ...valid, timeout: '30' })).toMatch(/^"timeout" must be a number of seconds/);
    expect(reason({ ...valid, timeout: 0 })).toMatch(/^"timeout" must be a number of seconds/);
    expect(reason({ ...valid, timeout: 90000 })).toMatch(/at most 86400/);
    expect(reason({ ...valid, secrets: 'API_KEY' })).toBe('"secrets" must be an array of key names');
    expect(reason({ ...valid, secrets: ['BAD-KEY'] })).toMatch(
      /"BAD-KEY", which is not a valid environment variable name/,
    );
    expect(reason({ ...valid, writable: '~/out' })).toBe('"writable" must be an array of folder paths');
    expect(reason({ ...valid, writable: [1] })).toBe('"writable" must be an array of folder paths');
    expect(reason({ ...valid, writable: [' '] })).toMatch(
      /^"writable" holds " ", which is not a usable path/,
    );
    expect(reason({ ...valid, writable: ['a\u0000b'] })).toMatch(/^"writable" holds .* not a usable path/);
    expect(reason({ ...valid, writable: Array.from({ length: 33 }, (_, i) => `d${i}`) })).toBe(
      '"writable" may list at most 32 folders',
    );
    expect(reason({ ...valid, parameters: { required: ['a', 2] } })).toBe(
      '"parameters.required" must be an array of property names',
    );
    expect(reason({ ...valid, name: 'x'.repeat(57) })).toBe('ok');
  });

  it('checks the size and depth of the fields it reads before reading them, leaving parameters to the limits step', () => {
    const deep = JSON.parse('['.repeat(100) + ']'.repeat(100)) as unknown;
    expect(reason({ ...valid, secrets: deep })).toMatch(
      /^"secrets" is nested deeper than 64 levels \(at 0\.0\.0.*; the limit is 64$/,
    );
    expect(reason({ ...valid, parameters: { required: Array<number>(70_000).fill(1) } })).toMatch(
      /^"parameters\.required" is larger than 128\.1 KiB as JSON; the limit is 128\.1 KiB$/,
    );
    expect(reason(JSON.stringify(valid) + ' '.repeat(2 * 512 * 1024))).toBe(
      'tool.json must hold at most 1 MiB of JSON',
    );
    // A deep schema still loads: the registry marks the tool broken at its limits step, and the listing shows it.
    const deepSchema = JSON.parse('{"properties":{"a":'.repeat(100) + '{}' + '}}'.repeat(100)) as unknown;
    expect(reason({ ...valid, parameters: deepSchema, extra: deep })).toBe('ok');
  });
});
