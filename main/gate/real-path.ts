// Where a path really leads (docs/security.md): symlinks followed as the kernel follows them, also where the end
// of the path does not exist yet or a link dangles, so a link in the workspace to ~/.ssh counts as ~/.ssh.
import fs from 'node:fs';
import path from 'node:path';

// The kernel gives up after 40 links (ELOOP); so does this.
const MAX_LINKS = 40;

/**
 * The absolute path `target` leads to from `base`: each existing component resolved through its symlinks
 * (a dangling link's target counts), `..` taken physically, the rest kept as written.
 */
export function realPath(target: string, base = '/'): string {
  const absolute = path.resolve(base, target);
  const pending = absolute.split(path.sep).filter((part) => part !== '');
  let current = path.parse(absolute).root;
  let exists = true;
  let links = 0;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '.') continue;
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    if (!exists) {
      current = next;
      continue;
    }
    let stat: fs.Stats | null;
    try {
      stat = fs.lstatSync(next);
    } catch {
      stat = null;
    }
    if (stat?.isSymbolicLink() && links < MAX_LINKS) {
      links++;
      let link: string;
      try {
        link = fs.readlinkSync(next);
      } catch {
        current = next;
        continue;
      }
      const resolved = path.isAbsolute(link) ? link : path.join(current, link);
      pending.unshift(...resolved.split(path.sep).filter((piece) => piece !== ''));
      current = path.parse(resolved).root;
      continue;
    }
    if (!stat) exists = false;
    current = next;
  }
  return current;
}

/** Whether `child` is `parent` or inside it (both absolute and normalised). */
export function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  return child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}
