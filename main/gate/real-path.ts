// Where a path really leads (docs/security.md): symlinks followed as the kernel follows them, also where the end
// of the path does not exist yet or a link dangles, so a link in the workspace to ~/.ssh counts as ~/.ssh. A path
// has two readings: the kernel's, which takes each `..` after the links before it (`link/..` is the link target's
// parent), and the lexical one of `cd`, path.resolve and git, which drops `name/..` first and then follows links.
// One pass over the components whatever the path's length (the gate reads paths a model wrote): no prefix is
// rebuilt, the disk is asked only about prefixes the kernel could open, and each of those only once per decision.
import fs from 'node:fs';
import path from 'node:path';

// The kernel gives up after 40 links (ELOOP); so does this.
const MAX_LINKS = 40;

// The kernel refuses a longer path (ENAMETOOLONG) before looking at the disk: a longer prefix exists for nobody.
const PATH_MAX = 4096;

/** Most disk look-ups one resolver makes; past them it stops resolving and says so (`exhausted`). */
export const MAX_LOOKUPS = 20_000;

const SEPARATORS = path.sep === '\\' ? /[\\/]/ : /\//;

/** How `..` is read: after the links before it (the kernel's open), or by dropping `name/..` first (`cd`, git). */
export type Reading = 'kernel' | 'lexical';

/** What the disk holds at a path: a symlink and its target, another entry, or nothing. */
type Entry = { kind: 'link'; target: string } | { kind: 'plain' } | { kind: 'missing' };

// What a resolver remembers, as a tree of path components from a root.
interface Node {
  entry: Entry;
  children: Map<string, Node>;
}

/**
 * Resolves paths against the disk, remembering what it saw: one decision resolves many paths from the same
 * folders and asks the disk about each prefix once. Make one per decision (nothing it remembers is refreshed).
 */
export class PathResolver {
  /** Set once MAX_LOOKUPS were made: later paths are only resolved as far as known, so callers must not rely on them. */
  exhausted = false;
  private lookups = 0;
  private readonly roots = new Map<string, Node>();
  // Regular files seen with more than one name (hard links), by the path they were looked up at.
  private readonly linked = new Set<string>();

  /** Whether the resolved path `real` was seen to be a regular file with more than one name (a hard link). */
  hardLinked(real: string): boolean {
    return this.linked.has(real);
  }

  /**
   * The absolute path `target` leads to from `base`: each existing component resolved through its symlinks
   * (a dangling link's target counts), `..` read as `reading` says, the rest kept as written.
   */
  resolve(target: string, base = '/', reading: Reading = 'lexical'): string {
    const absolute = path.isAbsolute(target)
      ? target
      : `${path.isAbsolute(base) ? base : path.resolve(base)}${path.sep}${target}`;
    let root = rootOf(absolute);
    const given = components(absolute.slice(root.length));
    // Components still to walk, the next one last.
    const pending = (reading === 'lexical' ? lexical(given) : given).reverse();
    // The components walked so far; the length of the path after each; the tree node of each existing one.
    let parts: string[] = [];
    let lengths: number[] = [];
    let nodes: Node[] = [];
    // The walked path as text, as far as the kernel could open it (`shown` components of it).
    let current = root;
    let shown = 0;
    let links = 0;
    let opaque = false;
    const restart = (newRoot: string) => {
      root = newRoot;
      parts = [];
      lengths = [];
      nodes = [];
      current = root;
      shown = 0;
    };
    const pop = () => {
      parts.pop();
      lengths.pop();
      if (nodes.length > parts.length) nodes.length = parts.length;
      if (shown > parts.length) {
        shown = parts.length;
        current = current.slice(0, lengths[shown - 1] ?? root.length);
      }
    };
    while (pending.length > 0) {
      const part = pending.pop() as string;
      if (part === '.') continue;
      // Past a link inside /proc nothing is known, not even where `..` leads (`/proc/net/..` is /proc/self): it is
      // kept as written.
      if (part === '..' && !opaque) {
        pop();
        continue;
      }
      const onDisk = nodes.length === parts.length;
      const length =
        (parts.length === 0 ? root.length : (lengths[lengths.length - 1] as number) + 1) + part.length;
      parts.push(part);
      lengths.push(length);
      if (length <= PATH_MAX) {
        current = shown === 0 ? root + part : current + path.sep + part;
        shown++;
      }
      if (!onDisk || length > PATH_MAX) continue;
      const node = this.child(nodes[nodes.length - 1] ?? this.root(root), part, current);
      if (node.entry.kind === 'missing') continue;
      // A link inside /proc (self, a pid, its cwd, root or fds) leads to what one process sees: this one's, not the
      // tool's (an MCP server's working folder, a sandboxed command's /proc). It is kept as written and nothing
      // under it is looked up, so the path still reads as a process file (docs/security.md, "Process files").
      if (node.entry.kind === 'link' && inProc(current)) {
        opaque = true;
        continue;
      }
      if (node.entry.kind === 'link' && links < MAX_LINKS) {
        links++;
        pop();
        const link = node.entry.target;
        const linkRoot = path.isAbsolute(link) ? rootOf(link) : null;
        if (linkRoot !== null) restart(linkRoot);
        const more = components(link.slice(linkRoot?.length ?? 0));
        for (let i = more.length - 1; i >= 0; i--) pending.push(more[i] as string);
        continue;
      }
      nodes.push(node);
    }
    return parts.length === 0 ? root : root + parts.join(path.sep);
  }

  private root(root: string): Node {
    let node = this.roots.get(root);
    if (!node) {
      node = { entry: { kind: 'plain' }, children: new Map() };
      this.roots.set(root, node);
    }
    return node;
  }

  private child(parent: Node, part: string, file: string): Node {
    const known = parent.children.get(part);
    if (known) return known;
    const node: Node = { entry: this.lookup(file), children: new Map() };
    // What was not looked up (the budget was spent) is not remembered as missing.
    if (!this.exhausted) parent.children.set(part, node);
    return node;
  }

  private lookup(file: string): Entry {
    if (this.lookups >= MAX_LOOKUPS) {
      this.exhausted = true;
      return { kind: 'missing' };
    }
    this.lookups++;
    try {
      // No exception for the common "not there": a thrown error costs more than the look-up.
      const stat = fs.lstatSync(file, { throwIfNoEntry: false });
      if (!stat) return { kind: 'missing' };
      if (stat.isFile() && stat.nlink > 1) this.linked.add(file);
      if (!stat.isSymbolicLink()) return { kind: 'plain' };
    } catch {
      return { kind: 'missing' };
    }
    try {
      return { kind: 'link', target: fs.readlinkSync(file) };
    } catch {
      // A symlink that cannot be read is, to us, the plain entry it then is.
      return { kind: 'plain' };
    }
  }
}

// `name/..` dropped and `.` skipped, as path.resolve does, in one pass.
function lexical(parts: readonly string[]): string[] {
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.') out.push(part);
  }
  return out;
}

function components(text: string): string[] {
  return text.split(SEPARATORS).filter((part) => part !== '');
}

function rootOf(absolute: string): string {
  // The root is at the start: a bounded head keeps path.parse off a long path.
  return path.parse(absolute.slice(0, 512)).root;
}

/**
 * The absolute path `target` leads to from `base` in its lexical reading (`name/..` dropped first, as run_command
 * resolves its `cwd`): each existing component resolved through its symlinks (a dangling link's target counts),
 * the rest kept as written.
 */
export function realPath(target: string, base = '/'): string {
  return new PathResolver().resolve(target, base);
}

/** Both readings of `target` from `base` (see Reading), without repeats: where it may lead, for checks. */
export function readings(resolver: PathResolver, target: string, base = '/'): string[] {
  const lexicalReading = resolver.resolve(target, base, 'lexical');
  if (!target.includes('..')) return [lexicalReading];
  const kernel = resolver.resolve(target, base, 'kernel');
  return kernel === lexicalReading ? [kernel] : [lexicalReading, kernel];
}

/** Whether `child` is `parent` or inside it (both absolute and normalised). */
export function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  return child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

// Whether `file` lies inside /proc (Linux's views of processes).
function inProc(file: string): boolean {
  return path.sep === '/' && file.startsWith('/proc/');
}
