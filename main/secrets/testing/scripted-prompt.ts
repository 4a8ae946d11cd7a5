// Test helper: a SecretPrompt that answers from a script, as a user typing into the masked prompt would.
import type { SecretPrompt, SecretRequest } from '../secret-prompt';

/** Answers each read with the next scripted value (null = the user cancelled) and records what was asked. */
export class ScriptedSecretPrompt implements SecretPrompt {
  /** Every request shown, in order. */
  readonly asked: SecretRequest[] = [];

  constructor(private readonly answers: Array<string | null>) {}

  /** The next scripted answer; null once the script is used up. */
  async read(request: SecretRequest, signal: AbortSignal): Promise<string | null> {
    signal.throwIfAborted();
    this.asked.push(request);
    return this.answers.shift() ?? null;
  }
}
