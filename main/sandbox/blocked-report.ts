// What the sandbox refused a run, in words the model can act on (docs/security.md). Linux's bubblewrap reports
// nothing itself: a refused write surfaces as "Read-only file system" (EROFS) in the program's own error, a hidden
// secret location as a missing or empty one, and the proxy records every host it refused.
import path from 'node:path';

/** What a run was allowed, to tell a refusal from an ordinary failure. */
export interface BlockedContext {
  /** The run's working folder: relative paths in messages are resolved against it. */
  cwd: string;
  /** Folders the run could write. */
  writable: string[];
  /** Paths inside them that stay read-only (git hooks and config, this app's workspace tools…). */
  readOnly: string[];
  /** Locations the run could not read. */
  hidden: string[];
  network: 'none' | 'proxy';
}

// An absolute path in a line, quoted or bare.
const QUOTED_PATH = /['"`‘’“”]([^'"`‘’“”\n]+)['"`‘’“”]/g;
const BARE_PATH = /(?:^|[\s:=(])(\/[^\s:'"`,;)]+)/g;
// The usual "<program>: <what> <path>: <error>" shape: the word right before the error text is the path.
const BEFORE_ERROR =
  /(\S+): (?:read-only file system|no such file or directory|permission denied|operation not permitted)/gi;
const READ_ONLY = /read-only file system|EROFS|errno 30\b/i;
const MISSING =
  /no such file or directory|ENOENT|cannot access|not found|permission denied|EACCES|operation not permitted|EPERM/i;
const NO_NETWORK =
  /could not resolve host|temporary failure in name resolution|name or service not known|getaddrinfo|ENOTFOUND|EAI_AGAIN|network is unreachable|ENETUNREACH|connection refused|ECONNREFUSED|no address associated/i;

/** The refusals found in `stderr` and in the proxy's records for this run (`proxyDenies`: the runtime's lines). */
export function blockedReport(
  stderr: string,
  context: BlockedContext,
  proxyDenies: readonly string[] = [],
): string[] {
  const found = new Set<string>();
  for (const line of stderr.split('\n').slice(0, 2000)) {
    if (READ_ONLY.test(line)) {
      for (const file of pathsIn(line, context.cwd)) {
        const kept = context.readOnly.find((dir) => inside(file, dir));
        if (kept) found.add(`a write to ${file} (${kept} stays read-only: it makes programs run code later)`);
        else if (!context.writable.some((dir) => inside(file, dir)))
          found.add(`a write to ${file} (outside the workspace and the temp folder)`);
      }
    } else if (MISSING.test(line)) {
      for (const file of pathsIn(line, context.cwd)) {
        // The most specific hidden place names it best (~/.ssh rather than ~).
        const hidden = context.hidden
          .filter((dir) => inside(file, dir))
          .sort((a, b) => b.length - a.length)[0];
        if (hidden) found.add(`a read of ${file} (the sandbox hides ${hidden})`);
      }
    }
  }
  if (context.network === 'none' && NO_NETWORK.test(stderr))
    found.add('network access (a command that a rule allowed without asking runs with no network)');
  for (const line of proxyDenies) {
    const match = /deny network-outbound (\S+) \(([^)]*)\)/.exec(line);
    if (match) found.add(`a connection to ${match[1]} (${proxyReason(match[2] ?? '')})`);
  }
  return [...found].slice(0, 20);
}

// A message's own prefix names the program, not what was refused: `/bin/sh: 2: cannot create /x: …`, `cat: /x: …`.
const PROGRAM_PREFIX = /^\s*[^\s:]+:(\s*(line )?\d+:)?\s/;

function pathsIn(fullLine: string, cwd: string): string[] {
  const line = fullLine.replace(PROGRAM_PREFIX, ' ');
  const quoted = [...line.matchAll(QUOTED_PATH)]
    .map((m) => m[1] as string)
    .filter((p) => !/\s/.test(p) || p.startsWith('/'));
  const bare = [...line.matchAll(BARE_PATH)].map((m) => m[1] as string);
  const named = [...line.matchAll(BEFORE_ERROR)].map((m) =>
    (m[1] as string).replace(/^['"`‘’“”]|['"`‘’“”]$/g, ''),
  );
  return [...new Set([...quoted, ...bare, ...named].map((p) => path.resolve(cwd, p.replace(/[.,;]+$/, ''))))];
}

function inside(file: string, dir: string): boolean {
  const root = path.resolve(dir);
  return file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

// The proxy's reasons, in the user's terms: "user denied" is our own ask callback refusing the host.
function proxyReason(reason: string): string {
  if (reason === 'user denied')
    return 'it is or resolves to a loopback, private, reserved or metadata address, which settings.json "web" does not allow';
  return reason;
}
