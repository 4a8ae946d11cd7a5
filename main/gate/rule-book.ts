// The rules API (docs/security.md, "Decisions and rules"): list, add and revoke; the shipped defaults and the user's rules in one list.
import { randomBytes } from 'node:crypto';
import { Emitter } from '../core/emitter';
import { legacyHashOf } from '../core/registry';
import { DEFAULT_RULES } from './default-rules';
import { matchGlob } from './glob';
import type { RuleStore } from './rule-store';
import type { ApprovalRule, DefaultRule, NewRule, RuleView, StoredRule } from './rule-types';

/** The rules in force, or why none applies. */
export type RuleSet = { kind: 'ok'; rules: ApprovalRule[] } | { kind: 'damaged'; problem: string };

/** The result of a revoke. */
export type RevokeResult = { kind: 'revoked'; rule: RuleView } | { kind: 'not_found'; id: string };

/** A change to the rules, for UIs that list them. */
export type RuleChange =
  | { type: 'added'; rule: RuleView }
  | { type: 'revoked'; rule: RuleView }
  | { type: 'bound'; id: string; tool: string };

/** Looks up the current definition hash of a tool (the registry's), undefined when it is not registered. */
export type DefinitionLookup = (tool: string) => string | undefined;

/** Shipped defaults plus the user's persisted rules. */
export class RuleBook {
  private readonly changes = new Emitter<RuleChange>();

  constructor(
    readonly store: RuleStore,
    private readonly defaults: readonly DefaultRule[] = DEFAULT_RULES,
  ) {}

  /** The rules in force: defaults not revoked, then the user's. A damaged file applies none (every call asks). */
  async current(): Promise<RuleSet> {
    const state = await this.store.read();
    if (state.kind === 'damaged') return state;
    const revoked = new Set(state.file.revokedDefaults);
    return {
      kind: 'ok',
      rules: [
        ...this.defaults
          .filter((rule) => !revoked.has(rule.id))
          .map((rule): ApprovalRule => ({ origin: 'default', ...rule })),
        ...state.file.rules.map((rule): ApprovalRule => ({ origin: 'user', ...rule })),
      ],
    };
  }

  /** Every rule in force, with whether a changed tool definition voids it now. */
  async list(definitionOf: DefinitionLookup = () => undefined): Promise<RuleView[]> {
    const set = await this.current();
    if (set.kind === 'damaged') throw new Error(set.problem);
    return set.rules.map((rule) => toView(rule, definitionOf));
  }

  /** Adds a user rule; an identical rule is updated with the new definitions instead of repeated. */
  async add(input: NewRule): Promise<RuleView> {
    const tool = input.tool.trim();
    if (tool === '') throw new Error('a rule needs a tool name or glob');
    const pattern =
      input.pattern === undefined || input.pattern === null || input.pattern === '' ? null : input.pattern;
    const except = [...new Set(input.except ?? [])].sort();
    const stored = await this.store.update((file) => {
      const same = file.rules.find(
        (rule) =>
          rule.tool === tool &&
          rule.pattern === pattern &&
          rule.effect === input.effect &&
          rule.except.join('\n') === except.join('\n'),
      );
      if (same) {
        Object.assign(same.definitions, input.definitions ?? {});
        const secrets = mergedSecrets(same.secrets, input.secrets);
        if (secrets) same.secrets = secrets;
        return same;
      }
      // The opposite effect on the same tool and pattern would be dead weight (deny wins) or a trap: replace it.
      file.rules = file.rules.filter(
        (rule) =>
          !(rule.tool === tool && rule.pattern === pattern && rule.except.join('\n') === except.join('\n')),
      );
      const rule: StoredRule = {
        id: `rule-${randomBytes(4).toString('hex')}`,
        tool,
        pattern,
        except,
        effect: input.effect,
        createdAt: new Date().toISOString(),
        definitions: { ...input.definitions },
        ...(mergedSecrets(undefined, input.secrets)
          ? { secrets: mergedSecrets(undefined, input.secrets) }
          : {}),
      };
      file.rules.push(rule);
      return rule;
    });
    const view = toView({ origin: 'user', ...stored }, () => undefined);
    this.changes.emit({ type: 'added', rule: view });
    return view;
  }

  /** Revokes a rule by id; revoking a shipped default is remembered in the file. */
  async revoke(id: string): Promise<RevokeResult> {
    const fallback = this.defaults.find((rule) => rule.id === id);
    const removed = await this.store.update((file): ApprovalRule | null => {
      if (fallback) {
        if (file.revokedDefaults.includes(id)) return null;
        file.revokedDefaults.push(id);
        return { origin: 'default', ...fallback };
      }
      const rule = file.rules.find((r) => r.id === id);
      if (!rule) return null;
      file.rules = file.rules.filter((r) => r.id !== id);
      return { origin: 'user', ...rule };
    });
    if (!removed) return { kind: 'not_found', id };
    const view = toView(removed, () => undefined);
    this.changes.emit({ type: 'revoked', rule: view });
    return { kind: 'revoked', rule: view };
  }

  /**
   * Records the definition a rule approved for a tool it meets for the first time, or moves a rule saved before
   * approvals named the source onto the tool that carries its content hash (the gate calls this only for a tool
   * that may take it: never an untrusted workspace tool).
   */
  async bind(id: string, tool: string, hash: string): Promise<void> {
    await this.store.update((file) => {
      const rule = file.rules.find((r) => r.id === id);
      const approved = rule?.definitions[tool];
      if (rule && (approved === undefined || legacyHashOf(hash, approved) !== null))
        rule.definitions[tool] = hash;
    });
    this.changes.emit({ type: 'bound', id, tool });
  }

  /** Subscribes to rule changes made through this book; returns the unsubscribe. */
  onChange(listener: (change: RuleChange) => void): () => void {
    return this.changes.on(listener);
  }
}

/** A rule as the API lists it. */
export function toView(rule: ApprovalRule, definitionOf: DefinitionLookup): RuleView {
  switch (rule.origin) {
    case 'default':
      return {
        ...base(rule),
        createdAt: null,
        void: false,
        changedTools: [],
        definitions: {},
        note: rule.note,
      };
    case 'user': {
      // A changed definition never loosens a deny: only allow rules go void.
      const changedTools = Object.entries(rule.effect === 'allow' ? rule.definitions : {})
        .filter(([tool, hash]) => {
          const now = definitionOf(tool);
          // An older hash without the source is not a change: the rule moves to the tool when it is next met.
          return (
            now !== undefined &&
            now !== hash &&
            legacyHashOf(now, hash) === null &&
            matchGlob(rule.tool, tool)
          );
        })
        .map(([tool]) => tool)
        .sort();
      return {
        ...base(rule),
        createdAt: rule.createdAt,
        void: changedTools.length > 0,
        changedTools,
        definitions: { ...rule.definitions },
        note: null,
      };
    }
  }
}

function base(rule: ApprovalRule) {
  return {
    id: rule.id,
    origin: rule.origin,
    tool: rule.tool,
    pattern: rule.pattern,
    except: [...rule.except],
    effect: rule.effect,
  };
}

// The secrets a rule may send after a person approved a call sending `added` with it; undefined when none.
function mergedSecrets(kept: string[] | undefined, added: string[] | undefined): string[] | undefined {
  const all = [...new Set([...(kept ?? []), ...(added ?? [])])].sort();
  return all.length > 0 ? all : undefined;
}
