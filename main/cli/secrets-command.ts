// `agenvoy secrets set|delete|list`: manage stored secrets by name; a value is only ever typed or piped in.
import { parseArgs } from 'node:util';
import { agenvoyHome, agenvoyPaths } from '../core/paths';
import { Redactor } from '../core/redactor';
import { assertSecretKey } from '../secrets/key-name';
import type { SecretPrompt } from '../secrets/secret-prompt';
import type { SecretEntry, SecretStoreStatus } from '../secrets/secret-store';
import { SecretStore } from '../secrets/secret-store';
import { StreamSecretPrompt, TerminalSecretPrompt } from '../secrets/terminal-prompt';
import type { CliIo } from './io';
import { UsageError } from './io';

/** Runs a `secrets` sub-command; resolves to the exit status. */
export async function secretsCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'set':
      return set(rest, io);
    case 'delete':
      return remove(rest, io);
    case 'list':
      return list(rest, io);
    default:
      throw new UsageError(`unknown secrets command "${sub ?? ''}": use set, delete or list`);
  }
}

/** The store the CLI works on: the same keychain service and file as the app, for AGENVOY_HOME in `io.env`. */
export function cliSecretStore(io: CliIo): SecretStore {
  return new SecretStore({
    secretsFile: agenvoyPaths(agenvoyHome(io.env)).secretsFile,
    redactor: new Redactor(),
    env: io.env,
  });
}

function oneKey(positionals: string[], usage: string): string {
  const [key, ...extra] = positionals;
  if (!key || extra.length > 0) throw new UsageError(`usage: ${usage}`);
  try {
    assertSecretKey(key);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return key;
}

async function set(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { stdin: { type: 'boolean' } },
  });
  const key = oneKey(positionals, 'agenvoy secrets set KEY [--stdin]');
  let prompt: SecretPrompt;
  if (values.stdin) prompt = new StreamSecretPrompt(io.stdin);
  else if (io.interactive) prompt = new TerminalSecretPrompt(io.stdin, io.stderr);
  else
    throw new UsageError(
      `no terminal to ask on: pipe the value in with \`agenvoy secrets set ${key} --stdin\``,
    );
  const store = cliSecretStore(io);
  // The value goes from the prompt straight into the store; nothing here prints or keeps it.
  const value = await prompt.read(
    { key, question: `Enter the value of ${key}.` },
    new AbortController().signal,
  );
  if (value === null) {
    io.stderr(`nothing stored: no value was given for ${key}\n`);
    return 1;
  }
  const where = await store.set(key, value);
  const status = await store.status();
  if (where === 'keychain') io.stdout(`stored ${key} in the OS keychain\n`);
  else {
    io.stdout(`stored ${key} in ${status.file}\n`);
    io.stderr(`note: ${status.reason}\n`);
  }
  return 0;
}

async function remove(argv: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  const key = oneKey(positionals, 'agenvoy secrets delete KEY');
  const removed = await cliSecretStore(io).delete(key);
  const stillInEnv = Boolean(io.env[key]);
  if (removed.length === 0) io.stderr(`no stored secret ${key}\n`);
  else io.stdout(`deleted ${key} from the ${removed.join(' and the ')}\n`);
  if (stillInEnv)
    io.stderr(`note: ${key} is still set as an environment variable, which tools fall back to\n`);
  return removed.length > 0 ? 0 : 1;
}

async function list(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
  const store = cliSecretStore(io);
  const status = await store.status();
  const secrets = await store.list();
  io.stdout(
    values.json ? JSON.stringify({ backend: status, secrets }, null, 2) + '\n' : formatList(status, secrets),
  );
  return 0;
}

/** The text of `secrets list`: the active backend and why, then one line per key name. */
export function formatList(status: SecretStoreStatus, secrets: SecretEntry[]): string {
  const interop = status.interopNote ? `\ninterop: ${status.interopNote}` : '';
  const head = `backend: ${status.backend} (${status.reason})${interop}\n`;
  if (secrets.length === 0) return `${head}no secrets stored\n`;
  const width = Math.max(...secrets.map((s) => s.key.length));
  return head + '\n' + secrets.map((s) => `${s.key.padEnd(width)}  ${s.locations.join(', ')}\n`).join('');
}
