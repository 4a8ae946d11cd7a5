// Builds the provider the settings name.
import type { ProviderSettings } from '../../settings/settings';
import { providerWire } from '../../settings/settings';
import { AnthropicProvider } from './anthropic';
import { OpenAiProvider } from './openai';
import type { Provider } from './provider';
import type { RetryNotice, RetryPolicy } from './retry';
import type { StreamLimits } from './stream-limits';

/** Tuning a host may pass on (tests shorten the retry waits; the app shows retries; settings bound the stream). */
export interface CreateProviderOptions {
  retry?: Partial<RetryPolicy>;
  onRetry?: (notice: RetryNotice) => void;
  limits?: Partial<StreamLimits>;
}

/** The provider for `settings`, sending `apiKey` (the value of settings.apiKeyName; null or undefined when absent). */
export function createProvider(
  settings: ProviderSettings,
  apiKey: string | null | undefined,
  options: CreateProviderOptions = {},
): Provider {
  const common = {
    baseUrl: settings.baseUrl,
    apiKey: apiKey ?? null,
    keyName: settings.apiKeyName,
    ...options,
  };
  switch (providerWire(settings.provider)) {
    case 'anthropic':
      return new AnthropicProvider(common);
    case 'openai':
      return new OpenAiProvider(common);
  }
}
