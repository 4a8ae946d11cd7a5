// Checks dialog answers that arrive from a page or a dialog window before they reach the gate or a prompt.
import type {
  ApprovalChoice,
  QuestionAnswer,
  QuestionView,
  SecretAnswer,
  TrustAnswer,
} from '../../preload/contract';
import type { PromptChoice, PromptItem } from '../gate/prompter-port';
import { HostError } from './host-error';
import { optionalString, requestObject } from './request-fields';

/** The longest deny reason or rule pattern accepted. */
const MAX_TEXT = 4000;
/** The longest secret value accepted (API keys and tokens are far shorter). */
export const MAX_SECRET_LENGTH = 64 * 1024;

/** An approval choice as the gate's PromptChoice. */
export function parseApprovalChoice(raw: unknown): PromptChoice {
  const fields = requestObject(raw);
  const kind = fields.kind as ApprovalChoice['kind'];
  const reason = optionalString(fields, 'reason', MAX_TEXT)?.trim();
  const pattern = patternOf(fields);
  switch (kind) {
    case 'allow_once':
    case 'allow_chat':
    case 'stop':
      return { kind };
    case 'allow_always':
      return pattern === undefined ? { kind } : { kind, pattern };
    case 'deny_always':
      return { kind, ...(pattern !== undefined ? { pattern } : {}), ...(reason ? { reason } : {}) };
    case 'deny':
      return reason ? { kind, reason } : { kind };
    default:
      throw new HostError('invalid_request', `unknown approval choice ${JSON.stringify(fields.kind)}`);
  }
}

/**
 * Why `choice` is refused for `item`, or null: a standing approval the item does not offer (a chained command line,
 * a sensitive target, …) is never accepted, even from a page that shows the button anyway (docs/security.md).
 */
export function unofferedChoice(item: PromptItem, choice: PromptChoice): string | null {
  const offered =
    choice.kind === 'allow_chat'
      ? item.offers.chat
      : choice.kind === 'allow_always'
        ? item.offers.always
        : true;
  if (offered) return null;
  const what = choice.kind === 'allow_chat' ? 'allow for this chat' : 'always allow';
  const why = item.compound
    ? `the command chains with "${item.compound}", and no grant or rule can cover a chained command line`
    : 'no standing approval can cover this call';
  return `"${what}" is not offered for this call: ${why}; allow it once or deny it`;
}

function patternOf(fields: Record<string, unknown>): string | null | undefined {
  if (!('pattern' in fields) || fields.pattern === undefined) return undefined;
  if (fields.pattern === null) return null;
  return optionalString(fields, 'pattern', MAX_TEXT);
}

/** A secret answer: the value or cancel. */
export function parseSecretAnswer(raw: unknown): SecretAnswer {
  const fields = requestObject(raw);
  if (fields.kind === 'cancel') return { kind: 'cancel' };
  if (fields.kind !== 'value') throw new HostError('invalid_request', 'a secret answer is a value or cancel');
  const value = fields.value;
  // The message names no value: errors can end up in logs.
  if (typeof value !== 'string') throw new HostError('invalid_request', 'the secret value must be a string');
  if (value.length > MAX_SECRET_LENGTH)
    throw new HostError('invalid_request', 'the secret value is too long');
  return { kind: 'value', value };
}

/** An ask_user answer, keeping only answers to the questions asked, in the shape each question takes. */
export function parseQuestionAnswer(raw: unknown, questions: readonly QuestionView[]): QuestionAnswer {
  const fields = requestObject(raw);
  if (fields.kind === 'dismissed') {
    const reason = optionalString(fields, 'reason', MAX_TEXT)?.trim();
    return reason ? { kind: 'dismissed', reason } : { kind: 'dismissed' };
  }
  if (fields.kind !== 'answered')
    throw new HostError('invalid_request', 'a question answer is answered or dismissed');
  const given = requestObject(fields.answers);
  const answers: Record<string, string | string[]> = {};
  for (const question of questions) {
    const value = given[question.id];
    if (value === undefined) continue;
    if (question.kind === 'multiple') {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
        throw new HostError('invalid_request', `the answer to "${question.id}" must be a list of strings`);
      }
      answers[question.id] = value as string[];
    } else {
      if (typeof value !== 'string') {
        throw new HostError('invalid_request', `the answer to "${question.id}" must be a string`);
      }
      answers[question.id] = value;
    }
  }
  return { kind: 'answered', answers };
}

/** A trust answer: trust, or cancel. */
export function parseTrustAnswer(raw: unknown): TrustAnswer {
  const fields = requestObject(raw);
  if (fields.kind === 'trust' || fields.kind === 'cancel') return { kind: fields.kind };
  throw new HostError('invalid_request', 'a trust answer is trust or cancel');
}
