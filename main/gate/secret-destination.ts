// Secrets a call sends away (docs/security.md, "Data leaving the machine"): http_request fills `${secret:NAME}`
// placeholders into its URL, headers and body just before sending, so a call naming one sends that stored secret to
// the URL's server. Only a person's decision for that call, or a rule that names the address, may let it run: a
// chat grant or a rule for any address was given for some calls and must not carry every stored key to any server.
import type { ApprovalRequest } from '../core/gate-port';
import type { ApprovalRule } from './rule-types';
import { SECRET_REFERENCE as PLACEHOLDER, secretReferences } from './secret-references';
import { parseUrlPattern } from './url-pattern';

/** The stored secrets a call would send and where to, or null when it sends none. */
export interface SecretsSent {
  names: string[];
  /** The URL's origin as the request will reach it, or the URL as written when its address holds a placeholder. */
  to: string;
}

/** What secrets the built-in http_request call would fill in, and its destination; null for any other call. */
export function secretsSent(request: ApprovalRequest): SecretsSent | null {
  if (request.tool !== 'http_request' || request.source.kind !== 'builtin') return null;
  const { url, headers, body } = request.args;
  // What http_request fills in: the URL, the body, and the headers' names and values.
  const fields = [url, body, headers && typeof headers === 'object' ? [Object.keys(headers), headers] : null];
  const names = secretReferences(fields.filter((field) => typeof field === 'string' || Array.isArray(field)));
  if (names.length === 0) return null;
  return { names, to: destination(typeof url === 'string' ? url : '') };
}

/** Whether an allow rule names the address it allows (a URL pattern with a host of its own), not any address. */
export function ruleNamesAddress(rule: Pick<ApprovalRule, 'pattern'>): boolean {
  if (rule.pattern === null) return false;
  const pattern = parseUrlPattern(rule.pattern);
  return pattern !== null && pattern.host.split('.').some((label) => label !== '' && !label.includes('*'));
}

/** Why a standing approval that names no address does not cover the call, in words for the prompt and denials. */
export function secretsReason(sent: SecretsSent): string {
  return (
    `it ${sendsWords(sent)}; a chat grant or a rule for any address never covers sending a secret, ` +
    'only your decision for this call or a rule naming the address'
  );
}

/** "sends the secret NAME to ORIGIN": what a call sending secrets does, in words. */
export function sendsWords(sent: SecretsSent): string {
  const which =
    sent.names.length === 1 ? `the secret ${sent.names[0]}` : `the secrets ${sent.names.join(', ')}`;
  return `sends ${which} to ${sent.to}`;
}

function destination(url: string): string {
  const before = url.replace(PLACEHOLDER, 'x');
  try {
    const parsed = new URL(before);
    // A placeholder in the scheme or the address: the server is only known once the secret is in it.
    const filled = new URL(url.replace(PLACEHOLDER, 'y'));
    return parsed.origin === filled.origin ? parsed.origin : url;
  } catch {
    return url;
  }
}
