// `npm start`: launches the desktop app. Where no Electron binary is installed (as on machines that install
// electron with ELECTRON_SKIP_BINARY_DOWNLOAD), it says so in one line and points to browser mode.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
// eslint-disable-next-line no-restricted-imports -- a plain-Node module (no electron import): finding the binary must not load electron
import { findElectronBinary, missingBinaryMessage } from '../main/electron/electron-binary';
import { ensureRenderer } from '../main/web/renderer-build';
import { buildElectron, ROOT } from './build-electron';

function electronPackageDir(): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

const binary = findElectronBinary(electronPackageDir());
if (binary.kind === 'missing') {
  console.error(missingBinaryMessage(binary.reason));
  process.exit(1);
}
await ensureRenderer({ log: (line) => console.error(line) });
await buildElectron();
const child = spawn(binary.path, [ROOT, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
