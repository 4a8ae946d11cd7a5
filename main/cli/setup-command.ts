// `agenvoy setup`: choose the model provider, its address, its key and a model, test the connection and save — the
// terminal's Welcome page (docs/hosts.md, "First run"). With flags it asks nothing; without, on a terminal, it asks
// step by step. Every failure is said in words and ends with a non-zero status.
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { listModels } from '../agent/providers/model-list';
import { agenvoyHome } from '../core/paths';
import { assertSecretKey } from '../secrets/key-name';
import { TerminalSecretPrompt, isTerminal } from '../secrets/terminal-prompt';
import type { ProviderKind } from '../settings/settings';
import {
  PROVIDER_DEFAULTS,
  PROVIDER_KINDS,
  PROVIDER_LABELS,
  providerWire,
  saveSettings,
  SettingsError,
} from '../settings/settings';
import type { CliIo } from './io';
import { UsageError } from './io';
import { cliSecretStore } from './secrets-command';
import { terminalText } from './terminal-text';

/** How many listed models the interactive picker numbers; the rest can be typed. */
const LISTED_MODELS = 40;

interface Choice {
  provider: ProviderKind;
  baseUrl: string;
  apiKeyName: string | null;
  model: string | undefined;
  test: boolean;
}

/** Runs `agenvoy setup`; resolves to the exit status. */
export async function setupCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      provider: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'no-key': { type: 'boolean' },
      'api-key-name': { type: 'string' },
      'no-test': { type: 'boolean' },
    },
  });
  if (positionals.length > 0) throw new UsageError(`setup takes no arguments (got "${positionals[0]}")`);
  const flagged = ['provider', 'base-url', 'model', 'no-key', 'api-key-name', 'no-test'].some(
    (name) => values[name as keyof typeof values] !== undefined,
  );
  if (!flagged && !io.interactive) {
    throw new UsageError(
      `no terminal to ask on: give the choices as flags, e.g. agenvoy setup --provider ollama --model llama3.2 ` +
        `(providers: ${PROVIDER_KINDS.join(', ')})`,
    );
  }
  if (values['no-key'] && values['api-key-name'] !== undefined)
    throw new UsageError('--no-key and --api-key-name contradict each other: give one');
  return flagged ? withFlags(values, io) : interactive(io);
}

async function withFlags(
  values: {
    provider?: string;
    'base-url'?: string;
    model?: string;
    'no-key'?: boolean;
    'api-key-name'?: string;
    'no-test'?: boolean;
  },
  io: CliIo,
): Promise<number> {
  if (values.provider === undefined)
    throw new UsageError(`--provider is required (${PROVIDER_KINDS.join(', ')})`);
  const provider = providerKind(values.provider);
  const defaults = PROVIDER_DEFAULTS[provider];
  let apiKeyName = values['no-key'] ? null : (values['api-key-name'] ?? defaults.apiKeyName);
  if (apiKeyName !== null) apiKeyName = keyName(apiKeyName);
  const choice: Choice = {
    provider,
    baseUrl: values['base-url']?.trim() || defaults.baseUrl,
    apiKeyName,
    model: values.model?.trim() || undefined,
    test: !values['no-test'],
  };
  if (!choice.test) {
    const model = choice.model ?? (defaults.model || undefined);
    if (!model) return fail(io, `--no-test needs --model: ${PROVIDER_LABELS[provider]} has no default model`);
    return save(io, { ...choice, model });
  }
  const listed = await testConnection(io, choice);
  if (!listed) return 1;
  const model = choice.model ?? (listed.includes(defaults.model) ? defaults.model : undefined);
  if (model === undefined) {
    return fail(io, `choose a model with --model; the server lists: ${preview(listed)}`);
  }
  const known = listedAs(model, listed);
  if (known === undefined) {
    return fail(io, `the server does not list the model "${model}"; it lists: ${preview(listed)}`);
  }
  return save(io, { ...choice, model: known });
}

async function interactive(io: CliIo): Promise<number> {
  const lines = new LineReader(io);
  try {
    io.stderr('Set up the model provider (Enter keeps the value in brackets).\n');
    PROVIDER_KINDS.forEach((kind, index) => io.stderr(`  ${index + 1}. ${PROVIDER_LABELS[kind]}\n`));
    const pickedProvider = await lines.ask('Provider [1]: ');
    const provider = pickedProvider === '' ? PROVIDER_KINDS[0] : providerKind(pickedProvider, PROVIDER_KINDS);
    const defaults = PROVIDER_DEFAULTS[provider];
    const baseUrl = (await lines.ask(`Base URL [${defaults.baseUrl}]: `)) || defaults.baseUrl;
    let apiKeyName = defaults.apiKeyName;
    const keyAnswer = (
      await lines.ask(
        `API key ${apiKeyName === null ? '(none for a local server) [n]' : `(${apiKeyName}) [y]`}? y/n: `,
      )
    ).toLowerCase();
    if (keyAnswer.startsWith('n')) apiKeyName = null;
    else if (keyAnswer.startsWith('y') && apiKeyName === null)
      apiKeyName = `${provider.toUpperCase()}_API_KEY`;
    if (apiKeyName !== null && !(await ensureKey(io, apiKeyName, lines))) return 1;

    const choice: Choice = { provider, baseUrl, apiKeyName, model: undefined, test: true };
    const listed = await testConnection(io, choice);
    let model: string;
    if (listed) {
      const shown = listed.slice(0, LISTED_MODELS);
      shown.forEach((id, index) => io.stderr(`  ${index + 1}. ${id}\n`));
      if (listed.length > shown.length)
        io.stderr(`  … and ${listed.length - shown.length} more (type an id)\n`);
      const fallback = listed.includes(defaults.model) ? defaults.model : (listed[0] ?? '');
      const answer = await lines.ask(`Model [${fallback}]: `);
      model = /^\d+$/.test(answer) ? (shown[Number(answer) - 1] ?? '') : answer || fallback;
      if (model === '' || !listed.includes(model))
        return fail(io, `"${answer}" is not one of the listed models`);
    } else {
      model = await lines.ask('Model id to save anyway (Enter gives up): ');
      if (model === '') return fail(io, 'nothing saved');
    }
    return await save(io, { ...choice, model });
  } finally {
    lines.close();
  }
}

/** The key is stored, or asked for now on the terminal (masked); false when it is neither. */
async function ensureKey(io: CliIo, key: string, lines: LineReader): Promise<boolean> {
  const store = cliSecretStore(io);
  if ((await store.get(key)) !== undefined) {
    io.stderr(`Using the stored ${key}.\n`);
    return true;
  }
  if (!isTerminal(io.stdin)) {
    fail(io, `${key} is not stored: run \`agenvoy secrets set ${key}\` first, or setup with --no-key`);
    return false;
  }
  // The masked prompt reads the terminal raw: the line reader lets go of it meanwhile.
  lines.pause();
  const value = await new TerminalSecretPrompt(io.stdin, io.stderr)
    .read(
      { key, question: `Enter the API key (kept in your keychain as ${key}).` },
      new AbortController().signal,
    )
    .finally(() => lines.resume());
  if (value === null || value === '') {
    fail(io, `no key was given for ${key}`);
    return false;
  }
  const where = await store.set(key, value);
  io.stderr(`Stored ${key} in ${where === 'keychain' ? 'the OS keychain' : (await store.status()).file}.\n`);
  return true;
}

/** Asks the server for its models; prints what went wrong and returns null when it could not. */
async function testConnection(io: CliIo, choice: Choice): Promise<string[] | null> {
  const apiKey =
    choice.apiKeyName === null ? null : ((await cliSecretStore(io).get(choice.apiKeyName)) ?? null);
  io.stderr(`Testing ${choice.baseUrl} …\n`);
  const result = await listModels({
    wire: providerWire(choice.provider),
    baseUrl: choice.baseUrl,
    apiKey,
    keyName: choice.apiKeyName,
  });
  if (!result.ok) {
    fail(io, `connection failed: ${result.error}`);
    return null;
  }
  io.stderr(
    `Connected: ${result.models.length} ${result.models.length === 1 ? 'model' : 'models'} listed.\n`,
  );
  return result.models;
}

async function save(io: CliIo, choice: Choice & { model: string }): Promise<number> {
  try {
    const file = await saveSettings(
      {
        provider: choice.provider,
        baseUrl: choice.baseUrl,
        model: choice.model,
        apiKeyName: choice.apiKeyName,
      },
      { home: agenvoyHome(io.env) },
    );
    io.stdout(
      `saved ${file}: ${PROVIDER_LABELS[choice.provider]} at ${choice.baseUrl}, model ${choice.model}, ` +
        `${choice.apiKeyName === null ? 'no key' : `key ${choice.apiKeyName}`}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof SettingsError) return fail(io, error.message);
    throw error;
  }
}

function providerKind(value: string, numbered?: readonly ProviderKind[]): ProviderKind {
  const text = value.trim().toLowerCase();
  if (numbered && /^\d+$/.test(text)) {
    const kind = numbered[Number(text) - 1];
    if (kind) return kind;
  }
  const kind = PROVIDER_KINDS.find((k) => k === text);
  if (!kind) throw new UsageError(`unknown provider "${value}": use one of ${PROVIDER_KINDS.join(', ')}`);
  return kind;
}

function keyName(value: string): string {
  try {
    assertSecretKey(value);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return value;
}

/** The id as the server lists it: exactly, or with Ollama's `:latest` tag the person left out; undefined when not listed. */
function listedAs(model: string, listed: string[]): string | undefined {
  if (listed.includes(model)) return model;
  return listed.includes(`${model}:latest`) ? `${model}:latest` : undefined;
}

function preview(models: string[]): string {
  return models.length > 20
    ? `${models.slice(0, 20).join(', ')} … (${models.length} in all)`
    : models.join(', ');
}

function fail(io: CliIo, message: string): number {
  // Messages carry the model server's words (its refusal, an error page): shown, never acted on by the terminal.
  io.stderr(`agenvoy setup: ${terminalText(message)}\n`);
  return 1;
}

/** One answer per line from the CLI's input; an ended input answers ''. It can let go of the input for a while. */
class LineReader {
  private rl: readline.Interface;
  private lines: AsyncIterator<string>;

  constructor(private readonly io: CliIo) {
    this.rl = readline.createInterface({ input: io.stdin, terminal: false });
    this.lines = this.rl[Symbol.asyncIterator]();
  }

  async ask(question: string): Promise<string> {
    this.io.stderr(question);
    const next = await this.lines.next();
    return next.done ? '' : String(next.value).trim();
  }

  /** Lets go of the input (a terminal has nothing buffered ahead of a question). */
  pause(): void {
    this.rl.close();
  }

  /** Reads lines again after pause. */
  resume(): void {
    this.rl = readline.createInterface({ input: this.io.stdin, terminal: false });
    this.lines = this.rl[Symbol.asyncIterator]();
  }

  close(): void {
    this.rl.close();
  }
}
