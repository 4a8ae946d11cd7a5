// Text that is unmistakably a credential by its shape: the published formats of widely used keys and tokens. ask_user
// never hands one to the model (docs/security.md, "What the person sees"); a key belongs in the masked prompt.

// Each format with a name the person and the model read. Prefixes and lengths as the issuers document them.
const SHAPES: ReadonlyArray<readonly [string, RegExp]> = [
  ['a private key', /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/],
  ['a GitHub token', /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/],
  ['a GitLab token', /\bglpat-[A-Za-z0-9_-]{20,}/],
  ['an Anthropic or OpenAI key', /\bsk-(?:ant-|proj-|svcacct-)?[A-Za-z0-9_-]{20,}/],
  ['an AWS access key', /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/],
  ['a Google API key', /\bAIza[0-9A-Za-z_-]{35}/],
  ['a Slack token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/],
  ['a Stripe key', /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/],
  ['an npm token', /\bnpm_[A-Za-z0-9]{36}\b/],
  ['a Hugging Face token', /\bhf_[A-Za-z0-9]{30,}/],
  ['a JSON web token', /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/],
];

/** What kind of credential `text` holds ("a GitHub token"), or null when it holds none of the known shapes. */
export function credentialShape(text: string): string | null {
  for (const [name, shape] of SHAPES) if (shape.test(text)) return name;
  return null;
}
