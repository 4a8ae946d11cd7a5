// `npm start`: launches the desktop app. Where no Electron binary is installed (as on machines that install
// electron with ELECTRON_SKIP_BINARY_DOWNLOAD), it starts browser mode instead — `agenvoy web --open`: the URL
// printed, the default browser opened where there is a display — and serves until Ctrl+C (docs/hosts.md).
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
  // Loaded only here: the desktop path does not need the CLI and its app host in this process.
  const { main } = await import('../main/launcher/main');
  // npm start's own arguments are Electron's, not browser mode's: none is passed on.
  process.exitCode = await main(['web', '--open']);
  // As bin/agenvoy: a keychain call that hangs in native code must not keep the stopped server's process alive.
  setTimeout(() => process.exit(), 1000).unref();
} else {
  await ensureRenderer({ log: (line) => console.error(line) });
  await buildElectron();
  const child = spawn(binary.path, [ROOT, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
