// The runtime's host-side proxy bridge is a socat it spawns and kills on reset(). When the app dies without a reset
// (SIGKILL, a crash, the OOM killer) that socat outlived it, listening on its socket for good; one more after every
// crash (docs/security.md, "A networked command waits for its bridge"). On Linux the runtime is given a socat that
// util-linux's `setpriv` starts with a parent-death signal, so the kernel kills the bridge when the app goes.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { quoteWord } from '../../tools/sdk/shell/quote';

/** A socat that dies with the process that started it, and the folder that holds it (to remove on close). */
export interface BridgeSocat {
  path: string;
  dir: string;
}

/**
 * Writes `socat` (the one given, else PATH's) behind `setpriv --pdeathsig KILL` into a private folder. Undefined
 * where there is no setpriv or no socat (not Linux, a distribution without util-linux): the runtime's own socat then.
 */
export async function bridgeSocat(socatPath?: string): Promise<BridgeSocat | undefined> {
  if (process.platform !== 'linux') return undefined;
  const setpriv = onPath('setpriv');
  const socat = socatPath ?? onPath('socat');
  if (!setpriv || !socat || !pdeathsigWorks(setpriv)) return undefined;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agenvoy-bridge-'));
  const wrapper = path.join(dir, 'socat');
  await fs.writeFile(
    wrapper,
    `#!/bin/sh\nexec ${quoteWord(setpriv)} --pdeathsig KILL -- ${quoteWord(socat)} "$@"\n`,
    { mode: 0o755 },
  );
  return { path: wrapper, dir };
}

function onPath(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

// Older setpriv (before util-linux 2.33) has no --pdeathsig.
function pdeathsigWorks(setpriv: string): boolean {
  try {
    execFileSync(setpriv, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}
