// The package rules on their own: native modules' ABI read from the real builds in node_modules, fuses a binary
// lacks, and the import and asset scanners on the shapes esbuild and Vite emit.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './build-electron';
import { checkFuses, checkNativeModules, importedPackages, nativeAbi, pageAssets } from './package-rules';

const release = (name: string, file: string) =>
  path.join(ROOT, 'node_modules', name, 'build', 'Release', file);

describe('nativeAbi', () => {
  it("reads Node's ABI from better-sqlite3 as npm ci built it, and N-API from keytar", () => {
    expect(nativeAbi(fs.readFileSync(release('better-sqlite3', 'better_sqlite3.node')))).toEqual({
      kind: 'abi',
      version: Number(process.versions.modules),
    });
    const keytar = release('keytar', 'keytar.node');
    if (fs.existsSync(keytar)) expect(nativeAbi(fs.readFileSync(keytar))).toEqual({ kind: 'napi' });
    expect(nativeAbi(Buffer.from('no symbols here'))).toEqual({ kind: 'unknown' });
  });

  it('flags a module that is packed, or built for another ABI', () => {
    const archive = {
      files: new Set([
        'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
        'node_modules/x/x.node',
      ]),
      unpacked: new Set(['node_modules/better-sqlite3/build/Release/better_sqlite3.node']),
    };
    const codes = checkNativeModules(archive, () => ({ kind: 'abi', version: 115 }), 150).map((f) => f.code);
    expect(codes).toEqual(['native_abi', 'native_packed']);
  });
});

describe('checkFuses', () => {
  it('names a fuse that is wrong and one the binary does not have', () => {
    expect(
      checkFuses(
        { runAsNode: 'on', onlyLoadAppFromAsar: 'removed' },
        { runAsNode: false, onlyLoadAppFromAsar: true },
      ),
    ).toEqual([
      { level: 'error', code: 'fuse_wrong', message: 'fuse runAsNode is on, the config asks for off' },
      {
        level: 'error',
        code: 'fuse_missing',
        message: "fuse onlyLoadAppFromAsar is not in the binary's fuse wire",
      },
    ]);
  });
});

describe('scanners', () => {
  it('finds static, side-effect, lazy and required packages, scoped ones by scope/name, and skips built-ins', () => {
    const source = [
      'import { a } from "zod";',
      'import "side-effect";',
      'import { Client } from "@modelcontextprotocol/sdk/client/index.js";',
      'import fs from "node:fs";',
      'import path from "path";',
      'const { chromium } = await import("playwright-core");',
      'const x = require("keytar");',
      'import { b } from "./local.js";',
    ].join('\n');
    expect(importedPackages(source)).toEqual([
      '@modelcontextprotocol/sdk',
      'keytar',
      'playwright-core',
      'side-effect',
      'zod',
    ]);
  });

  it('lists the local assets of a page, not remote ones or fragments', () => {
    const html =
      '<script type="module" crossorigin src="./assets/index-1.js"></script><link rel="stylesheet" href="./assets/a.css">' +
      '<a href="https://example.com/x">x</a><a href="#top">top</a>';
    expect(pageAssets(html)).toEqual(['assets/index-1.js', 'assets/a.css']);
  });
});
