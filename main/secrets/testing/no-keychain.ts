// Test files that run the app without a keychain: no session bus and no display, so the secret store uses
// $AGENVOY_HOME/.secrets at once and its probe does not wait for a Secret Service (docs/secrets.md).
import { afterAll, beforeAll } from 'vitest';

/** Call once at the top of a test file: its tests run with DBUS_SESSION_BUS_ADDRESS and DISPLAY unset. */
export function withoutKeychain(): void {
  const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, display: process.env.DISPLAY };
  beforeAll(() => {
    delete process.env.DBUS_SESSION_BUS_ADDRESS;
    delete process.env.DISPLAY;
  });
  afterAll(() => {
    if (saved.bus !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = saved.bus;
    if (saved.display !== undefined) process.env.DISPLAY = saved.display;
  });
}
