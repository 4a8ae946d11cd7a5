// The OS keychain (service `agenvoy`, account = key name) through keytar, or through libsecret's `secret-tool`
// where keytar is not installed (docs/secrets.md, "Where secrets live").
import { createRequire } from 'node:module';
import type { SecretTool } from './secret-tool';
import { SECRET_SERVICE } from './secret-tool';
import { withTimeout } from './with-timeout';

/**
 * keytar's functions, as the store uses them. Declared here rather than imported from keytar: it is an optional
 * dependency, absent wherever its native build failed (no libsecret headers), and the code must still compile there.
 */
export interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

/** Default limit of one keychain call after detection. */
export const KEYCHAIN_TIMEOUT_MS = 5000;

/** Loads keytar's native module; throws when it is not installed or not built for this machine. */
export function loadKeytar(): Keytar {
  // createRequire: keytar is CommonJS with a native addon, loaded only when the keychain is first needed.
  return createRequire(import.meta.url)('keytar') as Keytar;
}

/**
 * How the keychain is reached: keytar (with secret-tool beside it on Linux, when it answered the probe, for items
 * other programs stored), or secret-tool alone where keytar cannot be loaded or failed its probe.
 */
export type KeychainAccess =
  | { via: 'keytar'; keytar: Keytar; secretTool: SecretTool | null }
  | { via: 'secret-tool'; secretTool: SecretTool };

/** The keychain with one value per key, seen the same way by keytar and by `secret-tool`. */
export class Keychain {
  constructor(
    private readonly access: KeychainAccess,
    /** Told every value read from the keychain, so it can be redacted. */
    private readonly seen: (key: string, value: string) => void,
    private readonly timeoutMs = KEYCHAIN_TIMEOUT_MS,
  ) {}

  /** The value for `key`, stored by us or (through secret-tool) by another program; null when absent. */
  async get(key: string): Promise<string | null> {
    const { keytar, secretTool } = this.parts();
    const ours = keytar ? await this.bound(keytar.getPassword(SECRET_SERVICE, key), 'keychain read') : null;
    const found = ours ?? (secretTool ? await secretTool.lookup(key) : null);
    if (found === null) return null;
    // `echo value | secret-tool store …` stores the newline too, and some libsecret versions let keytar
    // find such foreign items itself: a key never means to end with a newline, whichever path found it.
    const value = found.replace(/\r?\n$/, '');
    this.seen(key, value);
    return value;
  }

  /** Stores `value` as the one item for `key`, replacing older ones whoever stored them. */
  async set(key: string, value: string): Promise<void> {
    const { keytar, secretTool } = this.parts();
    // keytar replaces only items carrying its schema marker: clear foreign ones first so one key has one value.
    if (secretTool) await secretTool.clear(key);
    if (keytar) await this.bound(keytar.setPassword(SECRET_SERVICE, key, value), 'keychain write');
    // Without keytar, secret-tool writes the item keytar would have written (its schema marker included).
    else await secretTool?.store(key, value, { asKeytar: true });
    this.seen(key, value);
  }

  /** Removes every item for `key`; true when there was one. */
  async delete(key: string): Promise<boolean> {
    const { keytar, secretTool } = this.parts();
    const ours = keytar
      ? await this.bound(keytar.deletePassword(SECRET_SERVICE, key), 'keychain delete')
      : false;
    const foreign = secretTool ? await secretTool.clear(key) : false;
    return ours || foreign;
  }

  /** Key names stored under service `agenvoy`, ours and other programs'. */
  async keys(): Promise<string[]> {
    const { keytar, secretTool } = this.parts();
    const names = new Set<string>();
    if (keytar) {
      for (const { account, password } of await this.bound(
        keytar.findCredentials(SECRET_SERVICE),
        'keychain list',
      )) {
        this.seen(account, password);
        names.add(account);
      }
    }
    if (secretTool) for (const account of await secretTool.accounts()) names.add(account);
    return [...names];
  }

  private parts(): { keytar: Keytar | null; secretTool: SecretTool | null } {
    return this.access.via === 'keytar'
      ? { keytar: this.access.keytar, secretTool: this.access.secretTool }
      : { keytar: null, secretTool: this.access.secretTool };
  }

  private bound<T>(work: Promise<T>, what: string): Promise<T> {
    return withTimeout(work, this.timeoutMs, what);
  }
}
