// The strict Content-Security-Policy of the app's pages, shared by the Electron shell and browser mode.

/** What a page may connect to besides nothing (browser mode: its WebSocket). */
export interface ContentPolicyOptions {
  connect?: string[];
}

/** A CSP allowing only the app's own script and style files: no inline code, no eval, no plugins, no frames. */
export function contentSecurityPolicy(options: ContentPolicyOptions = {}): string {
  const connect = options.connect && options.connect.length > 0 ? options.connect.join(' ') : "'none'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "manifest-src 'none'",
  ].join('; ');
}
