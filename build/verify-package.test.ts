// build/verify-package.ts on a package that electron-builder really built here, from this repository's config and
// bundles, around a stand-in Electron: no Electron binary can be fetched on these machines, so the "binary" is a small
// file carrying Electron's fuse wire as Electron ships it (sentinel, version 1, 8 fuses). electron-builder packs
// app.asar, unpacks the native modules and flips the fuses in it with @electron/fuses, as in a release; only the
// native rebuild is skipped (it downloads Electron's headers), so better-sqlite3 stays built for Node's ABI, and the
// check must say so.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import asar from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer } from '../main/web/renderer-build';
import { buildElectron, ROOT } from './build-electron';
import type { Finding } from './package-rules';
import { verifyPackage } from './verify-package';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// Electron's fuses as shipped: runAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on, asar integrity
// off, only-asar off, browser V8 snapshot off, file:// privileges on.
const SHIPPED_WIRE = '10110001';

let work: string;
let appDir: string;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-package-'));
  const electronDist = path.join(work, 'electron');
  fs.mkdirSync(path.join(electronDist, 'resources'), { recursive: true });
  fs.writeFileSync(
    path.join(electronDist, 'electron'),
    Buffer.concat([
      Buffer.from('#!/bin/sh\n# stand-in for the Electron binary\nexit 0\n# '),
      Buffer.from(SENTINEL),
      Buffer.from([1, SHIPPED_WIRE.length]),
      Buffer.from(`${SHIPPED_WIRE}\n`),
    ]),
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(electronDist, 'version'), 'v45.5.0');
  for (const file of ['LICENSE', 'LICENSES.chromium.html', 'chrome-sandbox'])
    fs.writeFileSync(path.join(electronDist, file), '');
  await Promise.all([buildElectron(), ensureRenderer()]);
  const out = path.join(work, 'out');
  const env: NodeJS.ProcessEnv = { ...process.env, GITHUB_REPOSITORY: 'someone/agenvoy-desktop' };
  delete env.AGENVOY_UNHARDENED;
  await promisify(execFile)(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'electron-builder', 'cli.js'),
      '--config',
      'build/electron-builder.config.cjs',
      '--linux',
      'dir',
      '--publish',
      'never',
      `-c.electronDist=${electronDist}`,
      '-c.npmRebuild=false',
      `-c.directories.output=${out}`,
    ],
    { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 },
  );
  appDir = path.join(out, 'linux-unpacked');
}, 240_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const errors = (findings: Finding[]) => findings.filter((finding) => finding.level === 'error');
const NODE_ABI = Number(process.versions.modules);

/** A copy of the package to damage. */
function copyOfPackage(name: string): string {
  const copy = path.join(work, name);
  fs.cpSync(appDir, copy, { recursive: true });
  return copy;
}

describe('a package electron-builder built from this config', () => {
  it('passes every check except the native ABI, which says the modules were not rebuilt for Electron', async () => {
    const findings = await verifyPackage(appDir, { expectFeed: true, electronAbi: 150 });
    expect(errors(findings)).toEqual([
      {
        level: 'error',
        code: 'native_abi',
        message: `node_modules/better-sqlite3/build/Release/better_sqlite3.node is built for ABI ${NODE_ABI}, Electron needs 150: it was not rebuilt for Electron`,
      },
    ]);
    const codes = findings.map((finding) => finding.code);
    expect(codes).toContain('file_hashes');
    expect(codes).toContain('header_hash_linux');
  });

  it('has no error at all when the expected ABI is the one the modules were built for', async () => {
    expect(errors(await verifyPackage(appDir, { expectFeed: true, electronAbi: NODE_ABI }))).toEqual([]);
  });

  it('reads the fuses electron-builder flipped to the hardened config', async () => {
    const binary = fs.readFileSync(path.join(appDir, 'agenvoy-desktop'));
    const at = binary.indexOf(SENTINEL) + SENTINEL.length;
    expect(binary.subarray(at + 2, at + 10).toString()).toBe('11001100');
  });

  it('fails on a fuse turned back on', async () => {
    const copy = copyOfPackage('fuse');
    const file = path.join(copy, 'agenvoy-desktop');
    const binary = fs.readFileSync(file);
    // onlyLoadAppFromAsar is the sixth fuse.
    binary[binary.indexOf(SENTINEL) + SENTINEL.length + 2 + 5] = '0'.charCodeAt(0);
    fs.writeFileSync(file, binary);
    expect(errors(await verifyPackage(copy, { electronAbi: NODE_ABI }))).toEqual([
      {
        level: 'error',
        code: 'fuse_wrong',
        message: 'fuse onlyLoadAppFromAsar is off, the config asks for on',
      },
    ]);
  });

  it('fails on a packed file changed after packing (Electron would refuse to load it)', async () => {
    const copy = copyOfPackage('tampered');
    const archive = path.join(copy, 'resources', 'app.asar');
    const entry = asar.statFile(archive, 'dist/electron/main.mjs') as { offset: string };
    const { headerSize } = asar.getRawHeader(archive);
    const fd = fs.openSync(archive, 'r+');
    // Content starts after the 8-byte size pickle and the header; overwrite one byte of main.mjs.
    fs.writeSync(fd, Buffer.from('X'), 0, 1, 8 + headerSize + Number(entry.offset) + 10);
    fs.closeSync(fd);
    asar.uncache(archive);
    expect(errors(await verifyPackage(copy, { electronAbi: NODE_ABI }))).toEqual([
      {
        level: 'error',
        code: 'file_hash',
        message: 'dist/electron/main.mjs does not match its hash in the archive header',
      },
    ]);
  });

  it('fails without the update feed a release must carry', async () => {
    const copy = copyOfPackage('no-feed');
    fs.rmSync(path.join(copy, 'resources', 'app-update.yml'));
    expect(
      errors(await verifyPackage(copy, { expectFeed: true, electronAbi: NODE_ABI })).map((f) => f.code),
    ).toEqual(['feed_missing']);
  });
});
