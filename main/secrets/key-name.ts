// Secret key names: environment-variable style, because a key falls back to (and is handed to scripts as) a variable.
import { SECRET_KEY_PATTERN } from '../../tools/sdk/types';

const KEY = new RegExp(SECRET_KEY_PATTERN);

/** A key name or value the store refuses; the message never holds a value. */
export class SecretStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretStoreError';
  }
}

/** Whether `key` is a valid secret key name. */
export function isSecretKey(key: string): boolean {
  return KEY.test(key);
}

/** Throws a SecretStoreError unless `key` is a valid secret key name. */
export function assertSecretKey(key: string): void {
  if (!isSecretKey(key)) {
    throw new SecretStoreError(
      `invalid secret key name ${JSON.stringify(key)}: use letters, digits and _ , not starting with a digit (e.g. GITHUB_TOKEN)`,
    );
  }
}
