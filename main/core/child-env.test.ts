import { describe, expect, it } from 'vitest';
import { childEnvironment, isAllowedVariable } from './child-env';

describe('childEnvironment', () => {
  it('passes the allow-list and drops everything else, credentials first of all', () => {
    const env = childEnvironment({
      PATH: '/usr/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      OPENAI_API_KEY: 'sk-canary',
      ANTHROPIC_API_KEY: 'sk-ant-canary',
      GITHUB_TOKEN: 'ghp_canary',
      AWS_SECRET_ACCESS_KEY: 'aws-canary',
      DB_PASSWORD: 'pw-canary',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/0/bus',
      XDG_RUNTIME_DIR: '/run/user/0',
      HTTP_PROXY: 'http://user:pw@proxy',
      AGENVOY_HOME: '/home/u/.config/agenvoy',
      NODE_OPTIONS: '--require /tmp/evil.js',
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8', LC_ALL: 'C' });
  });

  it('adds the caller’s own variables over the allow-list', () => {
    expect(childEnvironment({ PATH: '/bin' }, { MY_API_KEY: 'declared' })).toEqual({
      PATH: '/bin',
      MY_API_KEY: 'declared',
    });
  });

  it.each(['SERVICE_KEY', 'X_TOKEN', 'MY_SECRET', 'SMTP_PASSWORD', 'GH_TOKEN', 'NPM_TOKEN', 'BASIC_AUTH'])(
    'refuses %s',
    (name) => expect(isAllowedVariable(name)).toBe(false),
  );
});
