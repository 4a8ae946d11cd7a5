// Counts store_secret rounds per tool per turn (docs/secrets.md, "Credential auto-heal"): at most two, whichever path asked.
import type { HealPort } from '../../tools/sdk/types';

/** The most store_secret rounds one tool gets in one turn. */
export const MAX_HEAL_ROUNDS = 2;

/**
 * The budget store_secret calls without `for_tool` share (tools/builtin/store-secret.ts takes it under this name; tools/
 * cannot import main/): asking with no tool named is still at most MAX_HEAL_ROUNDS prompts per turn.
 */
export const NO_TOOL_HEAL_BUDGET = 'store_secret';

/** One turn's count of credential-heal rounds per tool. */
export class HealBudget implements HealPort {
  private readonly rounds = new Map<string, number>();

  /** Takes one round for `tool`; false when it has had MAX_HEAL_ROUNDS already. */
  take(tool: string): boolean {
    const used = this.rounds.get(tool) ?? 0;
    if (used >= MAX_HEAL_ROUNDS) return false;
    this.rounds.set(tool, used + 1);
    return true;
  }

  /** Rounds `tool` has used. */
  used(tool: string): number {
    return this.rounds.get(tool) ?? 0;
  }
}

/** Opens the store_secret prompt for a key a tool failed on; resolves true when a value was stored. */
export interface CredentialHealer {
  heal(
    request: { key: string; reason: string; tool: string; chatId: string },
    signal: AbortSignal,
  ): Promise<boolean>;
}
