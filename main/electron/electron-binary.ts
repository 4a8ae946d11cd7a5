// Finds the Electron binary the way the electron package would, without its side effect: requiring `electron`
// from Node downloads a missing binary, which cannot work here (no Electron download host is reachable).
import fs from 'node:fs';
import path from 'node:path';

/** Whether an Electron binary can be launched, and from where. */
export type ElectronBinary = { kind: 'found'; path: string } | { kind: 'missing'; reason: string };

/** Looks in the installed electron package (`path.txt` + `dist/`), honouring ELECTRON_OVERRIDE_DIST_PATH. */
export function findElectronBinary(
  packageDir: string | null,
  env: NodeJS.ProcessEnv = process.env,
): ElectronBinary {
  if (packageDir === null) return { kind: 'missing', reason: 'the electron package is not installed' };
  let relative: string | null = null;
  try {
    relative = fs.readFileSync(path.join(packageDir, 'path.txt'), 'utf8').trim() || null;
  } catch {
    relative = null;
  }
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidate = override
    ? path.join(override, relative ?? 'electron')
    : relative
      ? path.join(packageDir, 'dist', relative)
      : null;
  if (candidate === null) {
    return {
      kind: 'missing',
      // electron 45 has no install script: it fetches its binary on first use, or with `npx install-electron`.
      reason: 'the electron package has no binary yet; npx install-electron fetches it',
    };
  }
  if (!fs.existsSync(candidate)) return { kind: 'missing', reason: `no Electron binary at ${candidate}` };
  return { kind: 'found', path: candidate };
}

/** The one line `npm start` prints when it cannot launch the desktop app and starts browser mode instead. */
export function missingBinaryMessage(reason: string): string {
  return `agenvoy: no desktop app here (${reason}); starting browser mode instead (npx agenvoy web --open)`;
}
