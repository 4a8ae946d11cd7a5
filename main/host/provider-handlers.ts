// The Welcome page's "Test connection" (docs/hosts.md, "First run"): main asks the provider's server for its model
// list with the key from the secret store, so the page never holds the key, and the key goes only where
// key-destination.ts allows. Loopback and the LAN are allowed (the address is the person's own choice, not the model's).
import type { InvokeChannel } from '../../preload/contract';
import { listModels } from '../agent/providers/model-list';
import { isSecretKey } from '../secrets/key-name';
import { PROVIDER_KINDS, providerWire } from '../settings/settings';
import type { ProviderKind } from '../settings/settings';
import type { HandlerTable, HostContext } from './host-context';
import { HostError } from './host-error';
import type { KeyDestinations } from './key-destination';
import { requestObject, requiredString } from './request-fields';
import { shownText } from './shown-text';

type ProviderChannel = Extract<InvokeChannel, 'provider.models'>;

/** The provider handlers over the core's secret store. */
export function providerHandlers(
  ctx: HostContext,
  destinations: KeyDestinations,
): HandlerTable<ProviderChannel> {
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
      if (!(await destinations.allow(keyName, baseUrl, ctx.signal))) {
        throw new HostError(
          'declined',
          `${keyName} was not sent: you did not confirm sending it to ${baseUrl}`,
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
      // The key's value never appears in a message: errors name the key, and the server's words are redacted too;
      // their bidi, zero-width and control characters are shown as escapes (docs/security.md, "What the person sees").
      if (!result.ok) throw new HostError('unavailable', shownText(ctx.core.redactor.redact(result.error)));
      return { url: result.url, models: result.models };
    },
  };
}
