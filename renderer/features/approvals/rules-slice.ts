// Approval rules in force (defaults and the user's), reviewable and revocable.
import type { RuleItem } from '../../../preload/contract';
import type { SliceCreator } from '../../store/app-state';
import { invoke } from '../../boot/bridge';
import { t } from '../../i18n/i18n';

/** The rules panel's state. */
export interface RulesSlice {
  rules: RuleItem[];
  /** Set when the rules file is damaged. */
  rulesProblem: string | null;
  loadRules(): Promise<void>;
  revokeRule(id: string): Promise<void>;
}

/** Creates the rules slice. */
export const createRulesSlice: SliceCreator<RulesSlice> = (set, get) => ({
  rules: [],
  rulesProblem: null,
  async loadRules() {
    const result = await invoke('rules.list', {});
    if (result.ok) set({ rules: result.value.rules, rulesProblem: result.value.problem });
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.listRules'), message: result.error.message }),
      );
  },
  async revokeRule(id) {
    const result = await invoke('rules.revoke', { id });
    if (!result.ok)
      return get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.revoke'), message: result.error.message }),
      );
    set((s) => ({ rules: s.rules.filter((r) => r.id !== id) }));
  },
});
