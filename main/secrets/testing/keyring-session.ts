// Test helper: a private D-Bus session with an unlocked gnome-keyring-daemon, so keychain tests run anywhere the
// packages are installed (gnome-keyring, dbus-x11, libsecret-tools) without touching the user's keyring.
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A running private session; `stop` kills both daemons and restores the environment. */
export interface KeyringSession {
  address: string;
  dir: string;
  stop(): Promise<void>;
}

// No <servicedir>: nothing on this bus is D-Bus-activated, so the keyring we start is the only Secret Service.
const BUS_CONFIG = (dir: string) => `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=${dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;

/**
 * Starts dbus-daemon and an unlocked gnome-keyring-daemon and points this process at them. Call it before the
 * first keytar call in the test file: libsecret connects to the bus named by the environment once per process.
 */
export async function startKeyringSession(): Promise<KeyringSession> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-keyring-'));
  for (const sub of ['run', 'data', 'config', 'cache']) fs.mkdirSync(path.join(dir, sub), { mode: 0o700 });
  fs.writeFileSync(path.join(dir, 'bus.conf'), BUS_CONFIG(path.join(dir, 'run')));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dir,
    XDG_RUNTIME_DIR: path.join(dir, 'run'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_CACHE_HOME: path.join(dir, 'cache'),
  };
  delete env.DISPLAY;
  const children: ChildProcess[] = [];
  const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, display: process.env.DISPLAY };
  const stop = async () => {
    for (const child of children.reverse()) await kill(child);
    restore('DBUS_SESSION_BUS_ADDRESS', saved.bus);
    restore('DISPLAY', saved.display);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const bus = spawn('dbus-daemon', [`--config-file=${path.join(dir, 'bus.conf')}`, '--nofork', '--print-address=1'], {
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    children.push(bus);
    const address = await firstLine(bus, 5000);
    env.DBUS_SESSION_BUS_ADDRESS = address;
    const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    children.push(keyring);
    keyring.stdin?.end('agenvoy-test-password');
    await waitForName(address, 'org.freedesktop.secrets', 5000);
    process.env.DBUS_SESSION_BUS_ADDRESS = address;
    delete process.env.DISPLAY;
    return { address, dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

function firstLine(child: ChildProcess, limitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error('dbus-daemon printed no address')), limitMs);
    child.once('error', reject);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(buffer.slice(0, newline).trim());
      }
    });
  });
}

async function waitForName(address: string, name: string, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await nameHasOwner(address, name)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${name} did not appear on the private bus within ${limitMs} ms`);
}

function nameHasOwner(address: string, name: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      'dbus-send',
      [`--bus=${address}`, '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', `string:${name}`],
      { timeout: 2000 },
      (error, stdout) => resolve(!error && /boolean true/.test(stdout)),
    );
  });
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}
