// The environment a tool's child process starts with (docs/security.md): a short allow-list of what programs
// need to behave (PATH, HOME, locale, terminal), never the app's own variables, so no API key or token in the
// app's environment reaches a command or a script.

// Names passed on as they are.
const ALLOWED = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'TZ',
  'TMPDIR',
  'PWD',
  // Corporate CA bundles: TLS from inside the sandbox needs them, and they are certificates, not secrets.
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  // Windows needs these to start programs at all.
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
]);

// Locale categories (LC_ALL, LC_CTYPE…).
const LOCALE = /^LC_[A-Z]+$/;

// Whatever its name is on the list, a value under a credential-like name never passes.
const CREDENTIAL =
  /(_KEY|_TOKEN|_SECRET|PASSWORD|PASSWD|CREDENTIAL|_AUTH)$|^(AWS|GH|GITHUB|NPM_TOKEN)_|PASSWORD/i;

/** Whether a parent variable may pass into a tool's child process. */
export function isAllowedVariable(name: string): boolean {
  if (CREDENTIAL.test(name)) return false;
  return ALLOWED.has(name.toUpperCase()) || LOCALE.test(name);
}

/** The allow-listed part of `parent`, plus `extra` (a script tool's declared secrets, set by the caller). */
export function childEnvironment(
  parent: NodeJS.ProcessEnv,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && isAllowedVariable(name)) env[name] = value;
  }
  return { ...env, ...extra };
}
