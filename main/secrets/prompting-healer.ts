// Auto-heal for structured credential errors: the batch executor asks, the user answers in the masked prompt.
import type { SecretPromptPort } from '../../tools/sdk/types';
import type { CredentialHealer } from '../core/heal-budget';

/** A CredentialHealer that opens the store_secret prompt for the key a tool failed on. */
export class PromptingHealer implements CredentialHealer {
  constructor(private readonly prompt: SecretPromptPort) {}

  /** Resolves true when the user stored a value (the executor then retries the call), false when declined. */
  async heal(
    request: { key: string; reason: string; tool: string; chatId: string },
    signal: AbortSignal,
  ): Promise<boolean> {
    const question = healQuestion(request.key, request.reason, request.tool);
    return (
      (await this.prompt.ask({ key: request.key, question, forTool: request.tool }, signal)) === 'stored'
    );
  }
}

/** The text shown above the prompt when a tool failed for a credential reason. */
export function healQuestion(key: string, reason: string, tool: string): string {
  const why =
    reason === 'rejected'
      ? `the stored ${key} was rejected`
      : reason === 'expired'
        ? `the stored ${key} has expired`
        : `no ${key} is stored`;
  return `${tool} failed: ${why}. Enter a value to store it and retry.`;
}
