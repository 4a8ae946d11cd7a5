import { describe, expect, it } from 'vitest';
import { blockedReport } from './blocked-report';

const context = {
  cwd: '/w',
  writable: ['/w', '/tmp/run'],
  readOnly: ['/w/.git/config', '/w/.config/agenvoy'],
  hidden: ['/h/.ssh', '/h/.config/agenvoy/.secrets'],
  network: 'none' as const,
};

describe('blockedReport', () => {
  it('reads the refused path out of the messages programs really print', () => {
    const stderr = [
      '/bin/sh: 1: cannot create /etc/x: Read-only file system',
      "touch: cannot touch '/opt/y': Read-only file system",
      'mkdir: cannot create directory ‘/srv/z’: Read-only file system',
      "Error: EROFS: read-only file system, open '/var/n.txt'",
      "OSError: [Errno 30] Read-only file system: '/usr/p'",
      '/bin/sh: 1: cannot create .git/config: Read-only file system',
    ].join('\n');
    expect(blockedReport(stderr, context)).toEqual([
      'a write to /etc/x (outside the workspace and the temp folder)',
      'a write to /opt/y (outside the workspace and the temp folder)',
      'a write to /srv/z (outside the workspace and the temp folder)',
      'a write to /var/n.txt (outside the workspace and the temp folder)',
      'a write to /usr/p (outside the workspace and the temp folder)',
      'a write to /w/.git/config (/w/.git/config stays read-only: it makes programs run code later)',
    ]);
  });

  it('names a hidden secret location, and says nothing of ordinary missing files', () => {
    const stderr =
      'cat: /h/.ssh/id_rsa: No such file or directory\ncat: notes.txt: No such file or directory';
    expect(blockedReport(stderr, context)).toEqual(['a read of /h/.ssh/id_rsa (the sandbox hides /h/.ssh)']);
  });

  it('explains a failed network call of a command with no network, and the proxy’s refusals', () => {
    expect(blockedReport('curl: (6) Could not resolve host: example.com', context)).toEqual([
      'network access (a command that a rule allowed without asking runs with no network)',
    ]);
    expect(
      blockedReport('', { ...context, network: 'proxy' }, [
        'deny network-outbound 10.0.0.5:80 (user denied)',
      ]),
    ).toEqual([
      'a connection to 10.0.0.5:80 (it is or resolves to a loopback, private, reserved or metadata address, ' +
        'which settings.json "web" does not allow)',
    ]);
  });

  it('reports nothing for a clean failure', () => {
    expect(blockedReport('npm ERR! Test failed.', context)).toEqual([]);
  });
});
