// The Welcome page's "Test connection" (docs/hosts.md, "First run"): main asks the provider's server for its model
// list with the key from the secret store, so the page never holds the key; loopback and the LAN are allowed (the
// address is the person's own choice, not the model's).
import type { InvokeChannel } from '../../preload/contract';
import { listModels } from '../agent/providers/model-list';
import { isSecretKey } from '../secrets/key-name';
import { loadSettingsDraft, PROVIDER_DEFAULTS, PROVIDER_KINDS, providerWire } from '../settings/settings';
import type { ProviderKind } from '../settings/settings';
import type { HandlerTable, HostContext } from './host-context';
import { HostError } from './host-error';
import { requestObject, requiredString } from './request-fields';

type ProviderChannel = Extract<InvokeChannel, 'provider.models'>;

/** The provider handlers over the core's secret store. */
export function providerHandlers(ctx: HostContext): HandlerTable<ProviderChannel> {
  return {
    'provider.models': async (request) => {
      const fields = requestObject(request);
      const provider = requiredString(fields, 'provider', 32);
      if (!(PROVIDER_KINDS as readonly string[]).includes(provider)) {
        throw new HostError('invalid_request', `"provider" must be one of ${PROVIDER_KINDS.join(', ')}`);
      }
      const baseUrl = requiredString(fields, 'baseUrl', 2000).trim();
      const keyName = fields.apiKeyName;
      if (keyName !== null && (typeof keyName !== 'string' || !isSecretKey(keyName))) {
        throw new HostError(
          'invalid_request',
          '"apiKeyName" must be a key name such as OPENAI_API_KEY, or null',
        );
      }
      if (keyName !== null && !providerKeyNames(ctx, provider as ProviderKind).includes(keyName)) {
        // Any other secret would go to an address the request names: a page that is not ours could aim a stored
        // token at its own server this way. Only a provider key is ever sent (docs/security.md).
        throw new HostError(
          'invalid_request',
          `"${keyName}" is not a key of this provider: Test connection sends only ` +
            `${providerKeyNames(ctx, provider as ProviderKind).join(' or ')}`,
        );
      }
      const apiKey = keyName === null ? null : ((await ctx.core.secrets.get(keyName)) ?? null);
      const result = await listModels({
        wire: providerWire(provider as ProviderKind),
        baseUrl,
        apiKey,
        keyName,
        signal: ctx.signal,
      });
      // The key's value never appears in a message: errors name the key, and the server's words are redacted too.
      if (!result.ok) throw new HostError('unavailable', ctx.core.redactor.redact(result.error));
      return { url: result.url, models: result.models };
    },
  };
}

/**
 * The key names Test connection may send for `provider`: its default, the generic `<KIND>_API_KEY` the Welcome page
 * uses for a local server given a key, and the one settings.json names now.
 */
function providerKeyNames(ctx: HostContext, provider: ProviderKind): string[] {
  const names = new Set<string>([`${provider.toUpperCase()}_API_KEY`]);
  const preset = PROVIDER_DEFAULTS[provider].apiKeyName;
  if (preset) names.add(preset);
  try {
    const saved = loadSettingsDraft({ home: ctx.settings.home, env: ctx.settings.env }).apiKeyName;
    if (saved) names.add(saved);
  } catch {
    // A broken settings.json names no key.
  }
  return [...names];
}
