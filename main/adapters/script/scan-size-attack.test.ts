// A cloned repository whose script-tool folder is huge in sum though each tool.json is within its 1 MiB: 5,000
// folders (the count bound) of 1 MiB were gigabytes read, parsed, compiled and indexed as the workspace opened (100
// folders of 540 KiB schemas already took `agenvoy tools list` 16 s and 300 MB). The tool.json files of one scan folder
// are bounded together, the first folders by name, as an MCP server's tool list is. Through `agenvoy tools list`.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttackPlace } from './trust-attack-testing';
import { attackPlace, cli, DEPLOY_TOOL } from './trust-attack-testing';

let place: AttackPlace;

beforeEach(() => {
  place = attackPlace();
});

afterEach(() => {
  fs.rmSync(place.tmp, { recursive: true, force: true });
});

// Each file is just under 1 MiB; JSON's blanks make up the size, so loading the ones within the bound costs little.
const FILE_BYTES = 1000 * 1024;
const FOLDERS = 24;
// The bound (MAX_SCAN_BYTES in discover.ts), as the person reads it in the problem.
const BOUND = 16 * 1024 * 1024;

describe('a repository whose tool.json files are huge together', () => {
  it('loads the first folders up to the bound and says which were left out', async () => {
    for (let i = 0; i < FOLDERS; i++) {
      const name = `big_${String(i).padStart(2, '0')}`;
      const dir = path.join(place.workspaceScripts, name);
      fs.mkdirSync(dir, { recursive: true });
      const json = JSON.stringify({ ...DEPLOY_TOOL, name });
      fs.writeFileSync(
        path.join(dir, 'tool.json'),
        json.slice(0, -1) + ' '.repeat(FILE_BYTES - json.length) + '}',
      );
      fs.writeFileSync(path.join(dir, 'script.js'), 'console.log("ran")');
    }
    const listed = await cli(place, ['tools', 'list', '--json']);
    expect(listed.code).toBe(0);
    const names = (JSON.parse(listed.stdout) as Array<{ name: string }>)
      .map((tool) => tool.name)
      .filter((name) => name.startsWith('script_big_'));
    const fit = Math.floor(BOUND / FILE_BYTES);
    expect(fit).toBeLessThan(FOLDERS);
    expect(names).toEqual(Array.from({ length: fit }, (_, i) => `script_big_${String(i).padStart(2, '0')}`));
    const lint = await cli(place, ['tools', 'lint']);
    expect(lint.stdout + lint.stderr).toContain(
      `more than 16 MiB together: "big_${fit}" and the ${FOLDERS - fit - 1} folders after it are not loaded`,
    );
  });
});
