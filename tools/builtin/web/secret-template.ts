// `${secret:NAME}` placeholders (docs/secrets.md, "How tools get secrets"): resolved through ctx.getSecret just before sending, never shown back.
import type { ToolContext } from '../../sdk/types';
import { CredentialError } from '../../sdk/types';
import { invalidArgument } from './arguments';

const REFERENCE = /\$\{secret:([A-Za-z_][A-Za-z0-9_]{0,127})\}/g;
const ANY_REFERENCE = /\$\{secret:[^}]*\}?/g;

/** The secret names a text refers to, in order of first use; a malformed reference is an error naming `param`. */
export function secretNames(text: string, param: string): string[] {
  for (const match of text.matchAll(ANY_REFERENCE)) {
    if (!new RegExp(`^${REFERENCE.source}$`).test(match[0])) {
      throw invalidArgument(
        param,
        `has a malformed secret reference "${match[0]}": write \${secret:NAME} with NAME of letters, digits and _`,
      );
    }
  }
  return [...new Set([...text.matchAll(REFERENCE)].map((match) => match[1] ?? ''))];
}

/** Looks every name up; the first one that is missing is a CredentialError naming it. */
export async function resolveSecrets(
  names: Iterable<string>,
  ctx: ToolContext,
): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (const name of names) {
    if (values.has(name)) continue;
    const value = await ctx.getSecret(name);
    if (value === undefined || value === '') throw new CredentialError(name, 'missing');
    values.set(name, value);
  }
  return values;
}

/** Replaces every reference with its value; `encode` escapes values placed in a URL. */
export function fillSecrets(
  text: string,
  values: Map<string, string>,
  encode?: (value: string) => string,
): string {
  return text.replace(REFERENCE, (_whole, name: string) => {
    const value = values.get(name) ?? '';
    return encode ? encode(value) : value;
  });
}
