// Checks a built desktop package (electron-builder's unpacked output: linux-unpacked/, win-unpacked/ or Agenvoy.app):
// Electron's fuses against build/electron-builder.config.cjs, ASAR integrity (every file's hash in the archive
// header, and the header hash Electron validates on macOS and Windows), the shell's files and imports, native
// modules built for Electron. Usage: node --import tsx build/verify-package.ts <app folder or .app> [--expect-feed]
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import asar from '@electron/asar';
import fuses from '@electron/fuses';
import * as resedit from 'resedit';
import type { ArchiveView, Finding, FuseName, FuseValue } from './package-rules';
import {
  checkFiles,
  checkFuses,
  checkNativeModules,
  error,
  FUSE_NAMES,
  info,
  nativeAbi,
} from './package-rules';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the pieces of one unpacked package are. */
export interface PackageLayout {
  platform: 'linux' | 'win' | 'mac';
  /** What @electron/fuses reads: the executable, or the .app on macOS. */
  fuseTarget: string;
  resources: string;
  /** The executable that carries the embedded header hash (Windows), or Info.plist (macOS). */
  integrityCarrier: string | null;
}

/** Finds the layout of an unpacked package folder (or .app). */
export function packageLayout(appDir: string, config = builderConfig()): PackageLayout {
  if (appDir.endsWith('.app')) {
    return {
      platform: 'mac',
      fuseTarget: appDir,
      resources: path.join(appDir, 'Contents', 'Resources'),
      integrityCarrier: path.join(appDir, 'Contents', 'Info.plist'),
    };
  }
  const exe = path.join(appDir, `${config.productName}.exe`);
  if (fs.existsSync(exe))
    return {
      platform: 'win',
      fuseTarget: exe,
      resources: path.join(appDir, 'resources'),
      integrityCarrier: exe,
    };
  const name = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string })
    .name;
  return {
    platform: 'linux',
    fuseTarget: path.join(appDir, name),
    resources: path.join(appDir, 'resources'),
    integrityCarrier: null,
  };
}

/** The electron-builder config as packaging saw it (hardened unless AGENVOY_UNHARDENED=1). */
export function builderConfig(): {
  productName: string;
  electronFuses: Partial<Record<FuseName, boolean>> | null;
} {
  const file = path.join(ROOT, 'build', 'electron-builder.config.cjs');
  delete require.cache[file];
  return require(file) as ReturnType<typeof builderConfig>;
}

/** Electron's NODE_MODULE_VERSION, as the installed electron package records it. */
export function electronAbi(): number {
  const file = path.join(path.dirname(require.resolve('electron/package.json')), 'abi_version');
  return Number(fs.readFileSync(file, 'utf8').trim());
}

/** Runs every check on one package; `expectFeed`: a release build must carry app-update.yml. */
export async function verifyPackage(
  appDir: string,
  options: { expectFeed?: boolean; electronAbi?: number } = {},
): Promise<Finding[]> {
  const config = builderConfig();
  const layout = packageLayout(appDir, config);
  const archivePath = path.join(layout.resources, 'app.asar');
  if (!fs.existsSync(archivePath)) return [error('asar_missing', `${archivePath} does not exist`)];
  const findings: Finding[] = [];
  if (config.electronFuses)
    findings.push(...checkFuses(await readFuses(layout.fuseTarget), config.electronFuses));
  else findings.push(info('fuses_unhardened', 'AGENVOY_UNHARDENED=1: fuses not checked'));

  const archive = readArchive(archivePath);
  const read = (file: string) => asar.extractFile(archivePath, file).toString('utf8');
  const pages = Object.fromEntries(
    ['dist/renderer/index.html', 'dist/renderer/dialog.html']
      .filter((page) => archive.files.has(page))
      .map((page) => [page, read(page)]),
  );
  const main = archive.files.has('dist/electron/main.mjs') ? read('dist/electron/main.mjs') : '';
  findings.push(...checkFiles(archive, pages, main));
  const unpackedRoot = `${archivePath}.unpacked`;
  findings.push(
    ...checkNativeModules(
      archive,
      (file) => nativeAbi(fs.readFileSync(path.join(unpackedRoot, file))),
      options.electronAbi ?? electronAbi(),
    ),
  );
  findings.push(...checkFileHashes(archivePath, archive));
  findings.push(...(await checkHeaderHash(layout, archivePath)));
  if (options.expectFeed && !fs.existsSync(path.join(layout.resources, 'app-update.yml')))
    findings.push(error('feed_missing', 'resources/app-update.yml is missing: the app would never update'));
  return findings;
}

async function readFuses(target: string): Promise<Partial<Record<FuseName, FuseValue>>> {
  const { FuseV1Options, getCurrentFuseWire } = fuses;
  const wire = (await getCurrentFuseWire(target)) as unknown as Record<number, number | undefined>;
  const out: Partial<Record<FuseName, FuseValue>> = {};
  FUSE_NAMES.forEach((name) => {
    const index = FuseV1Options[(name.charAt(0).toUpperCase() + name.slice(1)) as keyof typeof FuseV1Options];
    const state = wire[index];
    // The wire's bytes (@electron/fuses FuseState): '1' on, '0' off, 'r' removed from this Electron.
    if (state === 0x31) out[name] = 'on';
    else if (state === 0x30) out[name] = 'off';
    else if (state === 0x72) out[name] = 'removed';
  });
  return out;
}

type HeaderNode = { files?: Record<string, HeaderNode>; unpacked?: boolean; integrity?: { hash: string } };

function readArchive(archivePath: string): ArchiveView & { hashes: Map<string, string> } {
  const view = { files: new Set<string>(), unpacked: new Set<string>(), hashes: new Map<string, string>() };
  const walk = (node: HeaderNode, prefix: string) => {
    for (const [name, child] of Object.entries(node.files ?? {})) {
      const file = prefix + name;
      if (child.files) walk(child, `${file}/`);
      else {
        view.files.add(file);
        if (child.unpacked) view.unpacked.add(file);
        if (child.integrity) view.hashes.set(file, child.integrity.hash);
      }
    }
  };
  walk(asar.getRawHeader(archivePath).header as HeaderNode, '');
  return view;
}

// Electron checks each packed file against its header hash when the integrity fuse is on: a file that does not match
// would stop the app at start, so the package must match its own header.
function checkFileHashes(archivePath: string, archive: ReturnType<typeof readArchive>): Finding[] {
  const findings: Finding[] = [];
  let checked = 0;
  for (const [file, hash] of archive.hashes) {
    const bytes = archive.unpacked.has(file)
      ? fs.readFileSync(path.join(`${archivePath}.unpacked`, file))
      : asar.extractFile(archivePath, file);
    checked++;
    if (createHash('sha256').update(bytes).digest('hex') !== hash)
      findings.push(error('file_hash', `${file} does not match its hash in the archive header`));
  }
  const without = archive.files.size - archive.hashes.size;
  if (without > 0)
    findings.push(error('file_no_hash', `${without} files have no integrity hash in the header`));
  findings.push(info('file_hashes', `${checked} file hashes checked`));
  return findings;
}

// The header hash Electron validates (macOS: Info.plist ElectronAsarIntegrity; Windows: the INTEGRITY resource).
async function checkHeaderHash(layout: PackageLayout, archivePath: string): Promise<Finding[]> {
  const actual = createHash('sha256').update(asar.getRawHeader(archivePath).headerString).digest('hex');
  let recorded: string | undefined;
  if (layout.platform === 'linux') {
    return [
      info('header_hash_linux', `Electron does not validate the header hash on Linux (sha256 ${actual})`),
    ];
  } else if (layout.platform === 'mac') {
    const plist = require('plist') as { parse(xml: string): unknown };
    const parsed = plist.parse(fs.readFileSync(layout.integrityCarrier ?? '', 'utf8')) as {
      ElectronAsarIntegrity?: Record<string, { hash?: string }>;
    };
    recorded = parsed.ElectronAsarIntegrity?.['Resources/app.asar']?.hash;
  } else {
    recorded = await windowsIntegrity(layout.integrityCarrier ?? '');
  }
  if (!recorded) return [error('header_hash_missing', 'the binary carries no ASAR header hash')];
  if (recorded !== actual)
    return [error('header_hash_wrong', `header hash ${recorded} recorded, the archive's is ${actual}`)];
  return [info('header_hash', `header hash matches (${actual})`)];
}

async function windowsIntegrity(exe: string): Promise<string | undefined> {
  const executable = resedit.NtExecutable.from(fs.readFileSync(exe));
  const entry = resedit.NtExecutableResource.from(executable).entries.find(
    (item) => item.type === 'INTEGRITY' && item.id === 'ELECTRONASAR',
  );
  if (!entry) return undefined;
  const list = JSON.parse(Buffer.from(entry.bin).toString('utf8')) as Array<{ file: string; value: string }>;
  return list.find((item) => item.file.replace(/\\/g, '/') === 'resources/app.asar')?.value;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [appDir] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  if (!appDir) {
    console.error('usage: verify-package.ts <unpacked app folder or .app> [--expect-feed]');
    process.exit(2);
  }
  const findings = await verifyPackage(path.resolve(appDir), {
    expectFeed: process.argv.includes('--expect-feed'),
  });
  for (const finding of findings)
    console.log(`${finding.level === 'error' ? 'FAIL' : 'ok  '} ${finding.code}: ${finding.message}`);
  const errors = findings.filter((finding) => finding.level === 'error').length;
  console.log(errors === 0 ? `package ok: ${appDir}` : `${errors} problem(s) in ${appDir}`);
  process.exitCode = errors === 0 ? 0 : 1;
}
