// A bound on keychain calls: keytar can hang ~25 s on a D-Bus session without a keyring daemon (docs/hosts.md, "Building and testing on these machines").

/** The keychain did not answer within our own limit. */
export class KeychainTimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly limitMs: number,
  ) {
    super(`${what} did not answer within ${limitMs} ms`);
    this.name = 'KeychainTimeoutError';
  }
}

/** Settles like `work`, or rejects with a KeychainTimeoutError after `limitMs`. */
export function withTimeout<T>(work: Promise<T>, limitMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KeychainTimeoutError(what, limitMs)), limitMs);
    // A keytar call stuck in a libuv worker must not also be kept alive by our timer.
    timer.unref();
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
