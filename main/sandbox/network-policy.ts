// The sandbox's network policy (docs/security.md): approved commands and script tools reach public hosts through
// the runtime's proxy; loopback, private, link-local and cloud-metadata addresses are refused unless settings.json's
// "web" block allows them (the same settings the web tools obey: one notion of "internal" for the whole app).
import type { SandboxAskCallback, SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { AddressGuard } from '../../tools/sdk/web/address-guard';
import type { WebSettings } from '../../tools/sdk/web/web-settings';
import { resolveWebSettings } from '../../tools/sdk/web/web-settings';

// Resolved addresses the proxy refuses for an allowed name besides its own list (loopback, link-local, this host's
// addresses, metadata): private-use space, unless settings allow private networks.
const PRIVATE_RANGES = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  'fc00::/7',
  'fe80::/10',
];

/** The network part of the runtime's configuration for the current settings. */
export function proxyNetworkConfig(web: WebSettings | undefined): SandboxRuntimeConfig['network'] {
  const settings = resolveWebSettings(web);
  // Hosts and addresses the user listed are allowed outright; CIDR ranges are decided by the ask callback.
  const listed = settings.allowedHosts
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== '' && !host.includes('/'))
    .map((host) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host));
  return {
    allowedDomains: settings.allowPrivateNetwork ? [...listed, 'localhost', '127.0.0.1', '[::1]'] : listed,
    deniedDomains: [],
    deniedResolvedAddresses: settings.allowPrivateNetwork ? [] : PRIVATE_RANGES,
  };
}

/** The proxy's ask callback: a host is allowed when every address it resolves to is one the web settings allow. */
export function networkAsk(web: () => WebSettings | undefined): SandboxAskCallback {
  return async ({ host }) => {
    const guard = new AddressGuard(resolveWebSettings(web()));
    try {
      await guard.resolve(host);
      return true;
    } catch {
      return false;
    }
  };
}
