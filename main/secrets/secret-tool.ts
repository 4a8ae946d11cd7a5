// libsecret's own `secret-tool` command (package libsecret-tools): interop beside keytar on Linux, and the whole
// keychain where keytar is not installed (docs/secrets.md, "Other programs' items" and "Without keytar").
//
// Why secret-tool and not keytar alone: keytar adds its schema name (xdg:schema =
// org.freedesktop.Secret.Generic) to every search, so it never sees items other programs stored under
// `service=agenvoy account=KEY` without that marker (what `secret-tool store` and the Agenvoy CLI
// write). secret-tool searches by the attributes alone. It is libsecret itself, the library keytar is
// built on, so it talks to the same Secret Service with no extra Node D-Bus client, needs no native
// build of ours; and as a child process it can be killed on our own timeout, which a keytar call stuck in
// a libuv worker cannot.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { KeychainTimeoutError } from './with-timeout';

/** The keychain service every Agenvoy secret is stored under. */
export const SECRET_SERVICE = 'agenvoy';

/** Default limit of one secret-tool run. */
export const SECRET_TOOL_TIMEOUT_MS = 5000;

/** The schema name keytar stores with every item (as the attribute `xdg:schema`) and matches in every search. */
export const KEYTAR_SCHEMA = 'org.freedesktop.Secret.Generic';

/** Finds an executable `secret-tool` on PATH; null when it is not installed. */
export function findSecretTool(env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'secret-tool');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The `secret-tool` command, scoped to service `agenvoy`, every run bounded in time. */
export class SecretTool {
  constructor(
    readonly command: string,
    private readonly timeoutMs = SECRET_TOOL_TIMEOUT_MS,
  ) {}

  /** The value stored for `account` by anyone (keytar or not); null when there is none. */
  async lookup(account: string): Promise<string | null> {
    const result = await this.run(['lookup', 'service', SECRET_SERVICE, 'account', account]);
    if (result.code === 0) return result.stdout;
    if (result.code === 1 && result.stderr.trim() === '') return null;
    throw this.failure('lookup', result);
  }

  /**
   * Stores `value` for `account` (the value goes on stdin). Plain, it is the item other programs store, without
   * keytar's schema marker; `asKeytar` adds the marker and keytar's label, so the item is the one keytar would have
   * written and keytar finds it too. An item with the same attributes is replaced.
   */
  async store(account: string, value: string, options: { asKeytar?: boolean } = {}): Promise<void> {
    const marker = options.asKeytar ? ['xdg:schema', KEYTAR_SCHEMA] : [];
    const label = `${SECRET_SERVICE}/${account}`;
    const result = await this.run(
      ['store', '--label', label, ...marker, 'service', SECRET_SERVICE, 'account', account],
      value,
    );
    if (result.code !== 0) throw this.failure('store', result);
  }

  /** Removes every item for `account`, whoever stored it; true when there was one. */
  async clear(account: string): Promise<boolean> {
    const result = await this.run(['clear', 'service', SECRET_SERVICE, 'account', account]);
    if (result.code === 0) return true;
    if (result.code === 1 && result.stderr.trim() === '') return false;
    throw this.failure('clear', result);
  }

  /** How many items are stored for `account`, whoever stored them; values are never read out of the output. */
  async count(account: string): Promise<number> {
    const result = await this.run(['search', '--all', 'service', SECRET_SERVICE, 'account', account]);
    // One `attribute.account = …` line per item, on stderr (stdout holds the values, which could fake one).
    const count = result.stderr
      .split('\n')
      .filter((line) => line === `attribute.account = ${account}`).length;
    if (result.code !== 0 && count === 0 && !/^\s*$/.test(withoutItems(result.stderr)))
      throw this.failure('search', result);
    return count;
  }

  /** Account names of every item under service `agenvoy`; values are never read out of the output. */
  async accounts(): Promise<string[]> {
    const result = await this.run(['search', '--all', 'service', SECRET_SERVICE]);
    // secret-tool prints the attributes on stderr (values go to stdout): read both, keep only accounts.
    const names = new Set<string>();
    for (const line of `${result.stdout}\n${result.stderr}`.split('\n')) {
      const match = /^attribute\.account = (.*)$/.exec(line);
      if (match?.[1] !== undefined) names.add(match[1]);
    }
    if (result.code !== 0 && names.size === 0 && !/^\s*$/.test(withoutItems(result.stderr))) {
      throw this.failure('search', result);
    }
    return [...names];
  }

  private failure(what: string, result: RunResult): Error {
    return new Error(
      `secret-tool ${what} failed (exit ${result.code}): ${result.stderr.trim() || 'no message'}`,
    );
  }

  // `input` goes on stdin, never on the command line, where any user could read it with ps.
  private run(args: string[], input?: string): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.command, args, {
        stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
      child.stdin?.on('error', () => {}).end(input);
      let stdout = '';
      let stderr = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new KeychainTimeoutError(`secret-tool ${args[0]}`, this.timeoutMs));
      }, this.timeoutMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }
}

// What is left of search's stderr once the per-item attribute lines are removed: an error message, if any.
function withoutItems(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !line.startsWith('attribute.'))
    .join('\n');
}
