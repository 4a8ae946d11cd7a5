// The README documents every tool.json key the loader knows, so an author never has to read the schema to find one.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_KEYS } from './tool-manifest-schema';

describe('README, "Script tools: tool.json"', () => {
  it('has a row for every key of tool.json, and none for a key the loader does not know', () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
    const start = readme.indexOf('#### Script tools: tool.json');
    expect(start).toBeGreaterThan(-1);
    const section = readme.slice(start, readme.indexOf('\n## ', start));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(rows).toEqual([...KNOWN_KEYS]);
  });
});
