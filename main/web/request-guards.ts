// Checks on every browser-mode request: the Host header (against DNS rebinding), the Origin (against other
// sites' pages) and the token (against other local users and programs). Pure functions, tested alone.
import { tokenMatches } from './web-token';

/** The names this host answers to on its port. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** The origins its own page has. */
export function allowedOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/** Whether the Host header names this host (a rebound DNS name does not). */
export function hostAllowed(host: string | undefined, port: number): boolean {
  return typeof host === 'string' && allowedHosts(port).includes(host.toLowerCase());
}

/** Whether an Origin header is this host's own page; `required` refuses a missing one (WebSocket upgrades). */
export function originAllowed(origin: string | undefined, port: number, required: boolean): boolean {
  if (origin === undefined) return !required;
  return allowedOrigins(port).includes(origin.toLowerCase());
}

/** Why a request is refused by its Host and Origin, or null when it passes (the token is checked by its target). */
export function refusal(
  request: { host: string | undefined; origin: string | undefined },
  rules: { port: number; needsOrigin: boolean },
): string | null {
  if (!hostAllowed(request.host, rules.port)) return 'unexpected Host header';
  if (!originAllowed(request.origin, rules.port, rules.needsOrigin)) return 'cross-origin request';
  return null;
}

/** Why a token is refused, or null when it is the right one. */
export function tokenRefusal(given: string | null, token: string): string | null {
  return tokenMatches(given, token) ? null : 'missing or wrong token';
}
