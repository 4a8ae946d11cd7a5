// Test helper: a private bus with an unlocked gnome-keyring-daemon, so keychain tests run anywhere the packages
// (gnome-keyring, dbus-x11, libsecret-tools) are installed, in parallel with other test files, without the user's keyring.
import { spawn } from 'node:child_process';
import type { PrivateBus } from './private-bus';
import { startPrivateBus, waitForName } from './private-bus';

/** Starts a private bus and an unlocked keyring on it, and points this process at them. */
export async function startKeyringSession(): Promise<PrivateBus> {
  const bus = await startPrivateBus();
  try {
    const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env: bus.env,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    bus.track(keyring);
    // --unlock reads the login keyring's password from stdin (a fresh HOME: it creates the keyring with it).
    keyring.stdin.end('agenvoy-test-password');
    await waitForName(bus.address, 'org.freedesktop.secrets', 5000);
    return bus;
  } catch (error) {
    await bus.stop();
    throw error;
  }
}
