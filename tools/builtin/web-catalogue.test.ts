import { describe, expect, it } from 'vitest';
import { DOWNLOAD_TIMEOUT_SECONDS } from './download-file';
import { HTTP_TIMEOUT_SECONDS } from './http-request';
import { builtinTools } from './index';
import { DEFAULT_TOOL_TIMEOUT } from '../sdk/types';

const MIN = 60_000;

// Issue 7's table and docs/dispatch.md ("Limits of the built-in tools"), for the web tools: the flags and registered limits the registry must carry.
const TABLE = {
  http_request: { flags: {}, timeoutMs: DEFAULT_TOOL_TIMEOUT },
  download_file: { flags: {}, timeoutMs: 10 * MIN },
  fetch_page: { flags: { alwaysAllow: false, concurrent: true }, timeoutMs: 90_000 },
  search_web: { flags: { alwaysAllow: true, concurrent: true }, timeoutMs: 90_000 },
  generate_image: { flags: {}, timeoutMs: 15 * MIN },
  generate_audio: { flags: {}, timeoutMs: 5 * MIN },
} as const;

describe('web tools in the built-in catalogue', () => {
  const tools = new Map(builtinTools().map((tool) => [tool.name, tool]));

  it.each(Object.entries(TABLE))('%s carries the flags and limit of the table', (name, expected) => {
    const tool = tools.get(name);
    expect(tool, `${name} is registered`).toBeDefined();
    expect(tool?.flags).toEqual({
      alwaysAllow: false,
      concurrent: false,
      background: false,
      systemUse: false,
      ...expected.flags,
    });
    expect(tool?.timeoutMs).toBe(expected.timeoutMs);
    expect(tool?.source).toEqual({ kind: 'builtin' });
  });

  it('documents the request timeouts the handlers apply', () => {
    expect(HTTP_TIMEOUT_SECONDS).toEqual({ default: 60, max: 300 });
    expect(DOWNLOAD_TIMEOUT_SECONDS).toEqual({ default: 120, max: 600 });
    const schema = (name: string) =>
      (tools.get(name)?.parameters as { properties: Record<string, { default?: unknown }> }).properties;
    expect(schema('http_request').timeout?.default).toBe(60);
    expect(schema('download_file').timeout?.default).toBe(120);
  });
});
