// Finding the Electron binary without triggering the electron package's download, in plain Node.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findElectronBinary, missingBinaryMessage } from './electron-binary';

function fakePackage(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-electron-pkg-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('findElectronBinary', () => {
  it('reports a package installed without its binary', () => {
    const dir = fakePackage({ 'package.json': '{}' });
    expect(findElectronBinary(dir, {})).toMatchObject({
      kind: 'missing',
      reason: expect.stringContaining('has no binary yet; npx install-electron fetches it'),
    });
  });

  it('reports a path.txt whose binary is gone', () => {
    const dir = fakePackage({ 'path.txt': 'electron' });
    expect(findElectronBinary(dir, {})).toMatchObject({
      kind: 'missing',
      reason: expect.stringContaining('no Electron binary at'),
    });
  });

  it('finds the binary under dist/, or under ELECTRON_OVERRIDE_DIST_PATH', () => {
    const dir = fakePackage({ 'path.txt': 'electron', 'dist/electron': '' });
    expect(findElectronBinary(dir, {})).toEqual({ kind: 'found', path: path.join(dir, 'dist', 'electron') });
    const other = fakePackage({ electron: '' });
    expect(findElectronBinary(dir, { ELECTRON_OVERRIDE_DIST_PATH: other })).toEqual({
      kind: 'found',
      path: path.join(other, 'electron'),
    });
  });

  it('reports a missing package; the message is one line saying browser mode starts instead', () => {
    expect(findElectronBinary(null, {})).toMatchObject({ kind: 'missing' });
    const message = missingBinaryMessage('no binary');
    expect(message).not.toContain('\n');
    expect(message).toContain('starting browser mode instead (npx agenvoy web --open)');
  });

  it('this machine: the installed electron package (types only) has no binary', () => {
    const installed = path.resolve('node_modules', 'electron');
    const found = findElectronBinary(fs.existsSync(installed) ? installed : null);
    if (found.kind === 'found') return; // A machine with the binary is fine too.
    expect(found.reason.length).toBeGreaterThan(0);
  });
});
