// The shared list of places whose files make a later program run code (tools/sdk/protected-names.ts): every spelling of
// a protected name is caught at any depth, ordinary names never are, and PATH folders are found as the shell does.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APP_TOOL_DIR,
  autorunReason,
  commandFolderReason,
  commandFolders,
  CONTROL_DIRS,
  PROTECTED_DIRS,
  PROTECTED_FILES,
  protectedPartsReason,
} from './protected-names';

// A name in a random mix of upper and lower case (what a case-insensitive file system treats as the same).
const anyCase = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
// Folder names that are none of the protected ones.
const plain = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,11}$/);

describe('protectedPartsReason', () => {
  it('catches every protected name in any case at any depth (property)', () => {
    const names = [...CONTROL_DIRS, ...PROTECTED_DIRS, ...PROTECTED_FILES];
    fc.assert(
      fc.property(
        fc.array(plain, { maxLength: 4 }),
        fc.constantFrom(...names).chain(anyCase),
        fc.array(plain, { maxLength: 3 }),
        (before, name, after) => {
          expect(protectedPartsReason([...before, name, ...after])).toMatch(/ is /);
        },
      ),
      { seed: 1_112, numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.array(plain, { maxLength: 4 }),
        anyCase('.config'),
        anyCase('agenvoy'),
        (before, c, a) => {
          expect(protectedPartsReason([...before, c, a, 'tools'])).toMatch(/this app's own tools/);
        },
      ),
      { seed: 1_113, numRuns: 100 },
    );
  });

  it('leaves ordinary names alone, also look-alikes (property)', () => {
    fc.assert(
      fc.property(fc.array(plain, { minLength: 1, maxLength: 6 }), (parts) => {
        expect(protectedPartsReason(parts)).toBeNull();
      }),
      { seed: 1_114, numRuns: 300 },
    );
    for (const parts of [
      ['.github', 'workflows', 'ci.yml'],
      ['.gitignore'],
      ['my.git', 'config'],
      ['.config', 'other'],
      ['config', 'agenvoy'],
      ['.bashrc.md'],
      [APP_TOOL_DIR[1] as string, APP_TOOL_DIR[0] as string],
    ])
      expect(protectedPartsReason(parts), parts.join('/')).toBeNull();
  });

  it('drops the trailing dots and spaces Windows drops', () => {
    expect(protectedPartsReason(['.git.', 'config'])).toMatch(/\.git/);
    expect(protectedPartsReason(['.envrc '])).toMatch(/\.envrc/);
  });
});

describe('autorun and command folders', () => {
  it('finds autostart and system folders, and files directly in a PATH folder only', () => {
    const home = '/home/u';
    expect(autorunReason('/home/u/.config/autostart/x.desktop', [home])).toMatch(/autostart/);
    expect(autorunReason('/etc/cron.d/job', [home])).toMatch(/\/etc/);
    expect(autorunReason('/home/u/projects/x', [home])).toBeNull();
    const folders = commandFolders([home], `/opt/tools/bin${path.delimiter}relative/bin${path.delimiter}`);
    expect(folders).toEqual(['/opt/tools/bin', '/home/u/.local/bin', '/home/u/bin']);
    expect(commandFolderReason('/opt/tools/bin/git', folders)).toMatch(/PATH/);
    expect(commandFolderReason('/home/u/bin/ls', folders)).toMatch(/PATH/);
    expect(commandFolderReason('/home/u/bin/sub/ls', folders)).toBeNull();
  });
});
