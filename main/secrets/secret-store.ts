// The secret store (docs/secrets.md, "Lookup order"): keychain → (not macOS/Windows) $AGENVOY_HOME/.secrets → environment variable.
import type { Redactor } from '../core/redactor';
import type { Detection } from './detect-backend';
import { detectKeychain, PROBE_ACCOUNT_PREFIX } from './detect-backend';
import { assertSecretKey, isSecretKey, SecretStoreError } from './key-name';
import type { Keytar } from './keychain';
import { Keychain } from './keychain';
import { findSecretTool, SecretTool } from './secret-tool';
import { SecretsFile } from './secrets-file';

/** Where a secret lives. */
export type SecretLocation = 'keychain' | 'file' | 'env';

/** A stored key name and where it lives; never its value. */
export interface SecretEntry {
  key: string;
  locations: SecretLocation[];
}

/** Which backend stores new secrets and why, for the UI and `agenvoy secrets list`. */
export interface SecretStoreStatus {
  /** 'none': no keychain and no file fallback (macOS/Windows); values can only come from the environment. */
  backend: 'keychain' | 'file' | 'none';
  /** How the keychain is reached: keytar, or secret-tool where keytar is missing or failed; null without one. */
  via: 'keytar' | 'secret-tool' | null;
  /** Why this backend is active (and, through secret-tool, why not keytar), in words a user can act on. */
  reason: string;
  /** How items other programs stored (without keytar's schema) are found; null when they are not. */
  interop: 'secret-tool' | null;
  interopNote: string | null;
  /** The secrets file consulted after the keychain; null on macOS and Windows. */
  file: string | null;
  /** How long the keychain probe took. */
  probeMs: number;
}

/** What the store is built from. */
export interface SecretStoreOptions {
  /** $AGENVOY_HOME/.secrets. */
  secretsFile: string;
  /** Told every value read or written, so logs, errors, events and tool output are scrubbed. */
  redactor: Redactor;
  /** Where the last-resort lookup reads variables; defaults to process.env (which is only ever read). */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Replaces the keychain probe (hosts that already know, tests of the store logic). */
  detect?: () => Promise<Detection>;
  /** Loads keytar for the probe (tests make it throw, as where keytar is not installed). */
  loadKeytar?: () => Keytar;
  probeTimeoutMs?: number;
}

interface Backend {
  status: SecretStoreStatus;
  keychain: Keychain | null;
}

/** Gets, stores, deletes and lists secrets; the keychain is probed once, on first use. */
export class SecretStore {
  /** The redactor every value goes to. */
  readonly redactor: Redactor;
  private readonly env: NodeJS.ProcessEnv;
  private readonly file: SecretsFile | null;
  private backend: Promise<Backend> | null = null;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SecretStoreOptions) {
    this.redactor = options.redactor;
    this.env = options.env ?? process.env;
    const platform = options.platform ?? process.platform;
    // docs/secrets.md ("No keychain"): the file is a fallback only where there is no always-present keychain.
    this.file =
      platform === 'darwin' || platform === 'win32'
        ? null
        : new SecretsFile(options.secretsFile, (key, value) => this.redactor.add(key, value));
    // docs/security.md ("Redaction"): every value in the file is scrubbed from the start, not only once a tool has used
    // it, so a stored key a command prints from elsewhere (a clone's remote URL) never shows. Reading a small local
    // file asks nobody; a keychain is not listed here, since listing it may ask the person to unlock each item.
    this.file?.seeAll();
  }

  /** The active backend and why; runs the probe if it has not run yet. */
  async status(): Promise<SecretStoreStatus> {
    return { ...(await this.resolve()).status };
  }

  /** The value for `key` from the keychain, else the file, else the environment; undefined when absent. */
  async get(key: string): Promise<string | undefined> {
    // A name that cannot be stored is simply absent: the caller reports it as a missing key.
    if (!isSecretKey(key)) return undefined;
    const { keychain } = await this.resolve();
    const value = (await keychain?.get(key)) ?? (await this.file?.get(key)) ?? nonEmpty(this.env[key]);
    if (value !== undefined) this.redactor.add(key, value);
    return value;
  }

  /** Stores `value` as the one value of `key` in the active backend; resolves to where it went. */
  async set(key: string, value: string): Promise<Exclude<SecretLocation, 'env'>> {
    assertSecretKey(key);
    if (value.length === 0) throw new SecretStoreError(`no value given for ${key}`);
    this.redactor.add(key, value);
    return this.serial(async () => {
      const { keychain, status } = await this.resolve();
      if (keychain) {
        await keychain.set(key, value);
        // One key, one value: an older copy in the fallback file would only go stale.
        await this.file?.delete(key);
        return 'keychain';
      }
      if (!this.file) throw new SecretStoreError(`cannot store ${key}: ${status.reason}`);
      await this.file.set(key, value);
      return 'file';
    });
  }

  /** Removes `key` from the keychain and the file; resolves to where it was removed from. */
  async delete(key: string): Promise<SecretLocation[]> {
    assertSecretKey(key);
    return this.serial(async () => {
      const { keychain } = await this.resolve();
      const removed: SecretLocation[] = [];
      if (keychain && (await keychain.delete(key))) removed.push('keychain');
      if (this.file && (await this.file.delete(key))) removed.push('file');
      return removed;
    });
  }

  /**
   * Every stored key name with where it lives (the environment is named only for keys stored elsewhere too). An item
   * another program stored under a name that is no key (control sequences, say) is left out: `get` never reads it,
   * and its name would reach the terminal of `agenvoy secrets list` as it is.
   */
  async list(): Promise<SecretEntry[]> {
    const { keychain } = await this.resolve();
    const locations = new Map<string, SecretLocation[]>();
    const add = (key: string, where: SecretLocation) =>
      locations.set(key, [...(locations.get(key) ?? []), where]);
    for (const key of (await keychain?.keys()) ?? [])
      if (!key.startsWith(PROBE_ACCOUNT_PREFIX) && isSecretKey(key)) add(key, 'keychain');
    for (const key of (await this.file?.entries())?.keys() ?? []) add(key, 'file');
    for (const key of locations.keys()) if (nonEmpty(this.env[key]) !== undefined) add(key, 'env');
    return [...locations.entries()]
      .map(([key, where]) => ({ key, locations: where }))
      .sort((a, b) => a.key.localeCompare(b.key));
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.writes.then(work);
    this.writes = next.catch(() => undefined);
    return next;
  }

  private resolve(): Promise<Backend> {
    this.backend ??= this.detect();
    return this.backend;
  }

  private async detect(): Promise<Backend> {
    const platform = this.options.platform ?? process.platform;
    const secretToolPath = platform === 'darwin' || platform === 'win32' ? null : findSecretTool();
    const detection = await (this.options.detect?.() ??
      detectKeychain({
        secretTool: secretToolPath ? new SecretTool(secretToolPath) : null,
        timeoutMs: this.options.probeTimeoutMs,
        ...(this.options.loadKeytar ? { loadKeytar: this.options.loadKeytar } : {}),
      }));
    const file = this.file?.file ?? null;
    if (detection.usable) {
      const { access } = detection;
      const keychain = new Keychain(access, (key, value) => this.redactor.add(key, value));
      const reason =
        access.via === 'keytar'
          ? `the OS keychain answered a probe write, read and delete in ${detection.probeMs} ms`
          : `the OS keychain answered secret-tool's probe write, read and delete in ${detection.probeMs} ms; ` +
            `secret-tool is used because ${detection.keytarNote ?? 'keytar is not available'}`;
      return {
        keychain,
        status: {
          backend: 'keychain',
          via: access.via,
          reason,
          interop: access.secretTool ? 'secret-tool' : null,
          interopNote: platform === 'linux' ? detection.interopNote : null,
          file,
          probeMs: detection.probeMs,
        },
      };
    }
    const reason = this.file
      ? `no usable keychain (${detection.reason}); secrets are kept in ${this.file.file} (mode 0600)`
      : `no usable keychain (${detection.reason}); secrets can only come from environment variables`;
    return {
      keychain: null,
      status: {
        backend: this.file ? 'file' : 'none',
        via: null,
        reason,
        interop: null,
        interopNote: null,
        file,
        probeMs: detection.probeMs,
      },
    };
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
