// Where a stored provider key may be sent (docs/security.md, "Where a provider key goes"): to its provider's own
// address, to the address settings.json already pairs it with, or to an address the person confirmed in a dialog main
// shows (a separate window in the desktop app). A page cannot aim a stored key at a server of its own by naming the
// key and an address, whether through Test connection or by saving settings.
import type { AskUserPort } from '../../tools/sdk/chat-ports';
import { loadSettingsDraft, PROVIDER_DEFAULTS, PROVIDER_KINDS, SettingsError } from '../settings/settings';
import type { SettingsPlace } from './desktop-settings';

/** Decides, and asks when it must, whether a key may go to an address. */
export interface KeyDestinations {
  /** True when `keyName` may be sent to `baseUrl`'s origin; asks the person when neither a preset nor the saved settings pair them. */
  allow(keyName: string | null, baseUrl: string, signal: AbortSignal): Promise<boolean>;
}

/** The pairs every host knows: each provider's key with its own address. */
const PRESET_PAIRS: ReadonlySet<string> = new Set(
  PROVIDER_KINDS.flatMap((kind) => {
    const { apiKeyName, baseUrl } = PROVIDER_DEFAULTS[kind];
    return apiKeyName === null ? [] : [pair(apiKeyName, baseUrl)];
  }),
);

/** The host's key destinations; what the person confirmed is remembered while the host runs. */
export function keyDestinations(settings: SettingsPlace, ask: AskUserPort): KeyDestinations {
  const confirmed = new Set<string>();
  return {
    async allow(keyName, baseUrl, signal) {
      if (keyName === null) return true;
      const wanted = pair(keyName, baseUrl);
      if (PRESET_PAIRS.has(wanted) || confirmed.has(wanted) || savedPair(settings) === wanted) return true;
      const origin = originOf(baseUrl);
      const send = `Send ${keyName} to ${origin}`;
      const answer = await ask.ask(
        '',
        [
          {
            id: 'send-key',
            prompt:
              `Send the API key stored as ${keyName} to ${origin}? Agenvoy sends a key only where you say so: ` +
              'a server you do not trust could use it.',
            kind: 'single',
            options: [send, 'Do not send'],
          },
        ],
        signal,
      );
      const yes = answer.answered && answer.answers['send-key'] === send;
      if (yes) confirmed.add(wanted);
      return yes;
    },
  };
}

function savedPair(settings: SettingsPlace): string | null {
  try {
    const saved = loadSettingsDraft({ home: settings.home, env: settings.env });
    return saved.apiKeyName === null ? null : pair(saved.apiKeyName, saved.baseUrl);
  } catch (error) {
    if (error instanceof SettingsError) return null;
    throw error;
  }
}

function pair(keyName: string, baseUrl: string): string {
  return `${keyName} ${originOf(baseUrl)}`;
}

/** The origin a URL sends to; the text itself when it is no URL (it then matches nothing saved). */
function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl.trim()).origin;
  } catch {
    return baseUrl.trim();
  }
}
