// Where git looks for a repository's hooks when its own config moves them into the work tree
// (`git config core.hooksPath .githooks`, as husky and most hook managers do): that folder runs programs on the
// person's next commit, checkout or push, so the sandbox keeps it read-only and the safe writer refuses it, as they
// do `.git/hooks` (docs/security.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A repository's config is small; one past this is not read (and then protects nothing more).
const MAX_CONFIG_BYTES = 256 * 1024;

/**
 * The absolute folder `core.hooksPath` names in the config files of the git folder `gitDir` (`config`, then
 * `config.worktree`; the last setting wins, as in git), relative paths read from the work tree `workTree`; null when
 * neither sets it.
 */
export function hooksPathOf(gitDir: string, workTree: string): string | null {
  let found: string | null = null;
  for (const name of ['config', 'config.worktree']) {
    const value = lastHooksPath(readSmall(path.join(gitDir, name)));
    if (value !== null) found = value;
  }
  if (found === null || found === '') return null;
  if (found === '~' || found.startsWith('~/')) return path.join(os.homedir(), found.slice(1));
  return path.resolve(workTree, found);
}

/**
 * The hooks folder of the repository holding `target` (its nearest enclosing folder with a `.git` folder), or null.
 * Bounded: at most 64 folders up.
 */
export function hooksPathAbove(target: string): string | null {
  let dir = path.dirname(path.resolve(target));
  for (let i = 0; i < 64; i++) {
    const gitDir = path.join(dir, '.git');
    try {
      if (fs.statSync(gitDir).isDirectory()) return hooksPathOf(gitDir, dir);
    } catch {
      // No repository here: the folder above.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
  return null;
}

function readSmall(file: string): string {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size > MAX_CONFIG_BYTES) return '';
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

// The last `hooksPath` of a `[core]` section, unquoted; null when none.
function lastHooksPath(text: string): string | null {
  let section = '';
  let value: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (header) {
      section = (header[1] ?? '').toLowerCase();
      // `[core] hooksPath = x` on the header's line.
      const rest = line.slice(header[0].length).trim();
      if (section === 'core') value = entry(rest) ?? value;
      continue;
    }
    if (section === 'core') value = entry(line) ?? value;
  }
  return value;
}

function entry(line: string): string | null {
  const match = /^hookspath\s*=\s*(.*)$/i.exec(line);
  if (!match) return null;
  let text = (match[1] ?? '').trim();
  // A comment ends the value outside quotes; quotes are removed.
  let out = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '\\' && i + 1 < text.length) {
      out += text[++i];
      continue;
    }
    if (char === '"') {
      quoted = !quoted;
      continue;
    }
    if (!quoted && (char === '#' || char === ';')) break;
    out += char;
  }
  text = out.trim();
  return text;
}
