// Builds the provider with the current API key, and asks for the key when it is missing or rejected (docs/agent-loop.md, "Provider settings"; docs/secrets.md, "Credential auto-heal").
import type { CredentialHealer } from '../core/heal-budget';
import type { Provider } from './providers/provider';

/** Gives the turn a provider and heals its key. */
export interface ProviderSource {
  /** The secret name of the API key; null for local servers without a key. */
  keyName: string | null;
  /** A provider built with the key as stored now; throws a 'missing' marker when a needed key is absent. */
  get(): Promise<Provider | { missingKey: string }>;
}

/** A ProviderSource over a factory and the secret lookup. */
export function providerSource(
  keyName: string | null,
  getSecret: (key: string) => Promise<string | undefined>,
  create: (apiKey: string | null) => Provider,
): ProviderSource {
  return {
    keyName,
    async get() {
      if (keyName === null) return create(null);
      const key = await getSecret(keyName);
      return key ? create(key) : { missingKey: keyName };
    },
  };
}

/** Asks for the provider's key through the healer; false when there is no healer or the user declined. */
export async function healProviderKey(
  healer: CredentialHealer | null,
  key: string,
  reason: 'missing' | 'rejected',
  chatId: string,
  signal: AbortSignal,
): Promise<boolean> {
  if (!healer) return false;
  return healer.heal({ key, reason, tool: 'model provider', chatId }, signal);
}
