// The `autoUpdate` setting on a real settings.json: default on, saved off and on without touching the other fields,
// a bad value warned about and ignored.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSettings } from './settings-file';
import { settingsPath } from './settings';
import { readAutoUpdate, saveAutoUpdate } from './update-setting';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-update-setting-'));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const write = (value: unknown) => {
  fs.mkdirSync(path.dirname(settingsPath(home)), { recursive: true });
  fs.writeFileSync(settingsPath(home), JSON.stringify(value));
};

describe('autoUpdate', () => {
  it('is on without a file and without the field', () => {
    expect(readAutoUpdate(home)).toBe(true);
    write({ model: 'm' });
    expect(readAutoUpdate(home)).toBe(true);
  });

  it('is saved off and on, keeping the other fields', async () => {
    write({ provider: 'openai', model: 'gpt-x', custom: 1 });
    await saveAutoUpdate(home, false);
    expect(readAutoUpdate(home)).toBe(false);
    expect(JSON.parse(fs.readFileSync(settingsPath(home), 'utf8'))).toEqual({
      provider: 'openai',
      model: 'gpt-x',
      custom: 1,
      autoUpdate: false,
    });
    await saveAutoUpdate(home, true);
    expect(readAutoUpdate(home)).toBe(true);
  });

  it('ignores a value that is not true or false, with a warning naming the field', () => {
    write({ autoUpdate: 'no' });
    expect(readAutoUpdate(home)).toBe(true);
    expect(readSettings(settingsPath(home)).warnings.map((warning) => warning.text)).toEqual([
      `${settingsPath(home)}: "autoUpdate" must be true or false (got "no"); it is ignored`,
    ]);
  });
});
