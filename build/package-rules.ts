// What a built desktop package must hold, as pure checks over what build/verify-package.ts read from it: the fuses
// the config asks for, the files the shell loads, every package the bundled main imports, native modules unpacked
// and built for Electron's ABI, and nothing of the build tools (docs/release.md, "What the package check proves").

/** One thing the check found; any `error` fails it. */
export interface Finding {
  level: 'error' | 'info';
  code: string;
  message: string;
}

/** The fuses electron-builder's `electronFuses` names, in the order of the fuse wire (@electron/fuses FuseV1Options). */
export const FUSE_NAMES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
] as const;

/** A fuse's name. */
export type FuseName = (typeof FUSE_NAMES)[number];

/** A fuse as the binary holds it: on, off, or removed from this Electron. */
export type FuseValue = 'on' | 'off' | 'removed';

/** Compares the binary's fuses with the config's; a fuse the config leaves out is not checked. */
export function checkFuses(
  actual: Partial<Record<FuseName, FuseValue>>,
  expected: Partial<Record<FuseName, boolean>>,
): Finding[] {
  const findings: Finding[] = [];
  for (const name of FUSE_NAMES) {
    const want = expected[name];
    if (want === undefined) continue;
    const have = actual[name];
    if (have === undefined || have === 'removed') {
      findings.push(error('fuse_missing', `fuse ${name} is not in the binary's fuse wire`));
    } else if ((have === 'on') !== want) {
      findings.push(
        error('fuse_wrong', `fuse ${name} is ${have}, the config asks for ${want ? 'on' : 'off'}`),
      );
    }
  }
  return findings;
}

/** The files the shell loads at run time, relative to the app root (main/electron/app-files.ts). */
export const SHELL_FILES = [
  'package.json',
  'dist/electron/main.mjs',
  'dist/electron/preload.cjs',
  'dist/electron/dialog-preload.cjs',
  'dist/renderer/index.html',
  'dist/renderer/dialog.html',
] as const;

/** Packages that must never ship: the build and test tools (a devDependency in the app means the files list leaks). */
export const NEVER_PACKAGED = [
  'electron',
  'electron-builder',
  'vite',
  'vitest',
  'typescript',
  'eslint',
  '@playwright/test',
  'esbuild',
  'tsx',
] as const;

/** The local files an HTML page loads (`src`/`href` relative to it), as paths relative to the page's folder. */
export function pageAssets(html: string): string[] {
  const found = new Set<string>();
  for (const match of html.matchAll(/\b(?:src|href)="([^"]+)"/g)) {
    const target = match[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || target.startsWith('#')) continue;
    found.add(target.replace(/^\.\//, '').replace(/^\//, ''));
  }
  return [...found];
}

/** The bare package names a bundled ES module imports (static and dynamic), without node: built-ins. */
export function importedPackages(source: string): string[] {
  const names = new Set<string>();
  const specifiers = [
    ...source.matchAll(/^\s*import\s[^'"]*?from\s*["']([^"']+)["']/gm),
    ...source.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
    ...source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
    ...source.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g),
    // Resolved to a path for a worker thread or a child process to load (`require.resolve('jsdom')`,
    // `createRequire(…).resolve('liquidjs')`): shipped as much as an import is.
    ...source.matchAll(/(?:\brequire\d*|\))\.resolve\(\s*["']([^"']+)["']\s*\)/g),
  ].map((match) => match[1] ?? '');
  for (const specifier of specifiers) {
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
    if (name && !BUILTINS.has(name)) names.add(name);
  }
  return [...names].sort();
}

// Built-ins a bundle may import without the node: prefix, and the one module Electron provides itself.
const BUILTINS = new Set([
  'electron',
  'fs',
  'path',
  'os',
  'url',
  'crypto',
  'child_process',
  'events',
  'stream',
  'util',
  'http',
  'https',
  'net',
  'zlib',
  'module',
  'worker_threads',
  'assert',
  'buffer',
  'readline',
  'tty',
]);

/** What the archive holds, as read from its header. */
export interface ArchiveView {
  /** Every file (not folder) path, relative, with `/`. */
  files: Set<string>;
  /** Files marked unpacked (they live in app.asar.unpacked). */
  unpacked: Set<string>;
}

/** The shell's files, the assets its pages load, the packages its main imports, and no build tools. */
export function checkFiles(
  archive: ArchiveView,
  pages: Record<string, string>,
  mainSource: string,
): Finding[] {
  const findings: Finding[] = [];
  for (const file of SHELL_FILES) {
    if (!archive.files.has(file)) findings.push(error('file_missing', `${file} is not in app.asar`));
  }
  for (const [page, html] of Object.entries(pages)) {
    const folder = page.slice(0, page.lastIndexOf('/') + 1);
    for (const asset of pageAssets(html)) {
      if (!archive.files.has(folder + asset))
        findings.push(error('asset_missing', `${page} loads ${asset}, which is not in app.asar`));
    }
  }
  for (const name of importedPackages(mainSource)) {
    if (!archive.files.has(`node_modules/${name}/package.json`))
      findings.push(error('package_missing', `the bundled main imports ${name}, which is not packaged`));
  }
  for (const name of NEVER_PACKAGED) {
    if (archive.files.has(`node_modules/${name}/package.json`))
      findings.push(error('dev_package', `${name} is packaged: build tools must stay out of the app`));
  }
  for (const file of archive.files) {
    if (file.endsWith('.map')) findings.push(error('source_map', `${file} is packaged`));
  }
  return findings;
}

/** Which ABI a native module was built for: a number (node_register_module_vN), N-API (stable), or unknown. */
export type NativeAbi = { kind: 'abi'; version: number } | { kind: 'napi' } | { kind: 'unknown' };

/** Reads the ABI from a native module's bytes: its exported registration symbol names it. */
export function nativeAbi(bytes: Buffer): NativeAbi {
  const text = bytes.toString('latin1');
  const versioned = /node_register_module_v(\d+)/.exec(text);
  if (versioned?.[1]) return { kind: 'abi', version: Number(versioned[1]) };
  if (text.includes('napi_register_module_v')) return { kind: 'napi' };
  return { kind: 'unknown' };
}

/** Every native module is unpacked, and each one tied to an ABI is built for Electron's. */
export function checkNativeModules(
  archive: ArchiveView,
  abiOf: (file: string) => NativeAbi,
  electronAbi: number,
): Finding[] {
  const findings: Finding[] = [];
  const modules = [...archive.files].filter((file) => file.endsWith('.node'));
  if (!modules.some((file) => file.includes('better-sqlite3/')))
    findings.push(error('native_missing', 'better-sqlite3 has no native module in the package'));
  for (const file of modules) {
    if (!archive.unpacked.has(file)) {
      findings.push(error('native_packed', `${file} is inside app.asar: native modules must be unpacked`));
      continue;
    }
    const abi = abiOf(file);
    if (abi.kind === 'abi' && abi.version !== electronAbi) {
      findings.push(
        error(
          'native_abi',
          `${file} is built for ABI ${abi.version}, Electron needs ${electronAbi}: it was not rebuilt for Electron`,
        ),
      );
    } else if (abi.kind === 'unknown') {
      findings.push(info('native_abi_unknown', `${file}: no registration symbol found, ABI not checked`));
    }
  }
  return findings;
}

/** An error finding. */
export function error(code: string, message: string): Finding {
  return { level: 'error', code, message };
}

/** An informational finding. */
export function info(code: string, message: string): Finding {
  return { level: 'info', code, message };
}
