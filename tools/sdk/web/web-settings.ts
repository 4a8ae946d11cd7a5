// The `web` settings port: what the web tools may reach and which services they use.
// main/settings/ reads `$AGENVOY_HOME/desktop/settings.json`, checks its "web" object against its zod schema
// (main/settings/settings-schema.ts: a bad value is dropped and named in a warning) and passes it into
// ToolServices.web; tools/ cannot read it itself. Every key is optional:
//
//   "web": {
//     "allowPrivateNetwork": false,        // true: the model may reach private, loopback, link-local,
//                                          //   CGNAT and unique-local addresses (cloud metadata stays blocked)
//     "allowedHosts": ["nas.lan", "*.corp.example", "192.168.1.20", "10.0.0.0/8"],
//                                          // host names (a "*." prefix takes every subdomain), IP addresses
//                                          //   or CIDR ranges reachable even though they are private
//     "chromiumPath": "/usr/bin/chromium", // the browser download_file render=true drives
//     "search": { "backend": "searxng", "url": "http://localhost:8888" },
//               // or { "backend": "brave", "keyName": "BRAVE_API_KEY" } ("url" overrides the API endpoint)
//     "images": { "baseUrl": "https://api.openai.com/v1", "model": "gpt-image-1", "keyName": "OPENAI_API_KEY" },
//     "audio": { "baseUrl": "https://api.openai.com/v1", "model": "gpt-4o-mini-tts", "keyName": "OPENAI_API_KEY",
//                "voice": "alloy" }
//   }
//
// An empty "keyName" sends no key (a local server without auth). Key values live in the secret store,
// never in settings.json.

/** Resolves a host name to addresses; replaces DNS (tests, or a host with its own resolver). */
export type HostResolver = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

/** Which web search backend search_web uses. */
export interface SearchSettings {
  /** Unset: search_web explains how to configure one. */
  backend?: 'searxng' | 'brave';
  /** SearXNG: the instance's base URL (required). Brave: overrides the API endpoint. */
  url?: string;
  /** Brave: the secret holding the subscription token. */
  keyName?: string;
}

/** An OpenAI-compatible API endpoint (images or audio). */
export interface MediaApiSettings {
  baseUrl?: string;
  model?: string;
  /** Secret holding the API key; '' sends none. */
  keyName?: string;
}

/** The web settings as main passes them in; every field is optional and defaults apply. */
export interface WebSettings {
  allowPrivateNetwork?: boolean;
  allowedHosts?: string[];
  chromiumPath?: string;
  search?: SearchSettings;
  images?: MediaApiSettings;
  audio?: MediaApiSettings & { voice?: string };
  /** Not from settings.json: replaces DNS look-ups (the address checks still apply to what it returns). */
  resolve?: HostResolver;
}

/** Web settings with every default applied. */
export interface ResolvedWebSettings {
  allowPrivateNetwork: boolean;
  allowedHosts: string[];
  chromiumPath: string;
  search: SearchSettings;
  images: Required<MediaApiSettings>;
  audio: Required<MediaApiSettings> & { voice: string };
  resolve?: HostResolver;
}

/** The Brave Search web endpoint, used when settings give no other. */
export const BRAVE_SEARCH_URL = 'https://api.search.brave.com/res/v1/web/search';

/** Where download_file render=true looks for Chromium unless settings say otherwise (Debian's package). */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** The settings with defaults for whatever is absent. */
export function resolveWebSettings(input: WebSettings | undefined): ResolvedWebSettings {
  const web = input ?? {};
  const resolved: ResolvedWebSettings = {
    allowPrivateNetwork: web.allowPrivateNetwork === true,
    allowedHosts: [...(web.allowedHosts ?? [])],
    chromiumPath: web.chromiumPath || DEFAULT_CHROMIUM_PATH,
    search: { ...web.search },
    images: {
      baseUrl: web.images?.baseUrl || OPENAI_BASE_URL,
      model: web.images?.model || 'gpt-image-1',
      keyName: web.images?.keyName ?? 'OPENAI_API_KEY',
    },
    audio: {
      baseUrl: web.audio?.baseUrl || OPENAI_BASE_URL,
      model: web.audio?.model || 'gpt-4o-mini-tts',
      keyName: web.audio?.keyName ?? 'OPENAI_API_KEY',
      voice: web.audio?.voice || 'alloy',
    },
  };
  if (web.resolve) resolved.resolve = web.resolve;
  return resolved;
}
