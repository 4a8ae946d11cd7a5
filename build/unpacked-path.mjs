// Prints where electron-builder put the unpacked app in an output folder (linux-unpacked/, win-unpacked/,
// mac*/Agenvoy.app), or with --executable the program to launch; with --all, every one found (one a line: a macOS
// release builds x64 and arm64). The workflows hand these to the package check and to the _electron suite.
// Usage: node build/unpacked-path.mjs <output folder> [--executable] [--all]
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [outDir] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const wantExecutable = process.argv.includes('--executable');
if (!outDir) {
  console.error('usage: unpacked-path.mjs <output folder> [--executable] [--all]');
  process.exit(2);
}
const require = createRequire(import.meta.url);
const pkg = require('../package.json');
const { productName } = require('./electron-builder.config.cjs');
const folders = fs
  .readdirSync(outDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** The app (or its executable) in one output sub-folder, or null when it holds none. */
function appIn(folder) {
  const dir = path.join(outDir, folder);
  const candidates = /-unpacked$/.test(folder)
    ? wantExecutable
      ? [path.join(dir, `${productName}.exe`), path.join(dir, pkg.name)]
      : [dir]
    : /^mac/.test(folder)
      ? [path.join(dir, `${productName}.app`, ...(wantExecutable ? ['Contents', 'MacOS', productName] : []))]
      : [];
  return candidates.find((candidate) => fs.existsSync(candidate)) ?? null;
}

const apps = folders.map(appIn).filter((app) => app !== null);
if (apps.length === 0) {
  console.error(`no unpacked app in ${outDir} (sub-folders: ${folders.slice(0, 10).join(', ') || 'none'})`);
  process.exit(1);
}
for (const app of process.argv.includes('--all') ? apps : apps.slice(0, 1)) console.log(path.resolve(app));
