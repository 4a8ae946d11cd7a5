// The SecretPrompt port (a masked reader: terminal now, desktop and browser dialogs later) and the
// store_secret port built on it, through which a value goes from the prompt to the store and nowhere else.
import { ToolError, type SecretPromptPort } from '../../tools/sdk/types';
import type { SecretStore } from './secret-store';

/** What the user is asked: the key, why, and the tool that needs it. */
export type SecretRequest = Parameters<SecretPromptPort['ask']>[0];

/** A masked reader of one secret value. */
export interface SecretPrompt {
  /** The value the user entered, or null when they cancelled. Rejects with `signal.reason` when aborted. */
  read(request: SecretRequest, signal: AbortSignal): Promise<string | null>;
}

/** The store_secret service: reads through a SecretPrompt, one prompt at a time, and stores what was entered. */
export class StoringSecretPrompt implements SecretPromptPort {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly prompt: SecretPrompt,
    private readonly store: Pick<SecretStore, 'get' | 'set'>,
  ) {}

  /** Asks for `request.key` and stores the answer; the value is never returned. */
  ask(request: SecretRequest, signal: AbortSignal): Promise<'stored' | 'declined'> {
    // The heal path and store_secret can both ask at once; the user answers one prompt at a time.
    const next = this.queue.then(async () => {
      signal.throwIfAborted();
      // Replacing a stored key needs a tool that failed for it and is handed it (store_secret checks that); without
      // one, the model's question alone would have the person overwrite a key other tools rely on (docs/security.md).
      if (!request.forTool && (await this.store.get(request.key)) !== undefined) {
        throw new ToolError(
          'invalid_arguments',
          `${request.key} is already stored; store_secret replaces a stored key only for the tool that failed with ` +
            `it (name it in for_tool); otherwise tell the user to run \`agenvoy secrets set ${request.key}\``,
          { parameter: 'key' },
        );
      }
      const value = await this.prompt.read(request, signal);
      if (value === null || value === '') return 'declined' as const;
      await this.store.set(request.key, value);
      return 'stored' as const;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
