// Asking the real shells what a line means, for tests of the shell-line reader: the words `printf '%s\0'` prints.
import { execFileSync } from 'node:child_process';

/** The shells /bin/sh can be: dash (Debian) and bash in POSIX mode (what `sh` is elsewhere). */
export const SHELLS: ReadonlyArray<{ name: string; argv: string[] }> = [
  { name: 'dash', argv: ['dash', '-c'] },
  { name: 'bash --posix', argv: ['bash', '--posix', '-c'] },
];

/** The argv a shell builds from `words` (a shell text), or null when it fails; run with only `env`. */
export function shellWords(
  shell: readonly string[],
  words: string,
  env: Record<string, string>,
): string[] | null {
  const [program, ...args] = shell;
  try {
    const out = execFileSync(program as string, [...args, `printf '%s\\0' ${words}`], {
      env,
      cwd: '/',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    });
    return out.toString('utf8').split('\0').slice(0, -1);
  } catch {
    return null;
  }
}

/**
 * The argvs a shell builds from many word texts in one run (a separator record between them); a text that ends in
 * a backslash gets a run of its own, since a newline after it would join the next one.
 */
export function shellWordsMany(
  shell: readonly string[],
  texts: readonly string[],
  env: Record<string, string>,
): Array<string[] | null> {
  const batch = texts.filter((text) => !text.endsWith('\\'));
  const script = batch.map((text) => `printf '%s\\0' ${text}\nprintf '\\001\\0'`).join('\n');
  const out = batch.length > 0 ? shellWords(shell, `'' >/dev/null\n${script}`, env) : [];
  const groups: string[][] = [];
  let current: string[] = [];
  for (const word of out ?? []) {
    if (word === '\u0001') {
      groups.push(current);
      current = [];
    } else current.push(word);
  }
  const ok = out !== null && groups.length === batch.length;
  return texts.map((text) => {
    const index = batch.indexOf(text);
    if (ok && index >= 0) return groups[index] ?? null;
    return shellWords(shell, text, env);
  });
}

/** A small seeded random source, so a failing generated case can be replayed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One element of `items`, chosen by `random`. */
export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}
