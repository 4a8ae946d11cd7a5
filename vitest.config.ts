import { defineConfig } from 'vitest/config';

const ALL = [
  'main/**/*.test.ts',
  'tools/**/*.test.ts',
  'preload/**/*.test.ts',
  'renderer/**/*.test.{ts,tsx}',
  'build/**/*.test.ts',
];

// Slow or timing-sensitive suites: real child processes and process trees, the OS sandbox, real MCP servers,
// Chromium, kill -9 recovery, property-based fuzzing, and the attack suites that drive the CLI end to end. They run
// in their own project (`npm run test:slow`), so the fast project (`npm run test:fast`) stays a quick inner loop;
// `npm test` and CI run both.
const SLOW = [
  '**/*-attack.test.ts',
  '**/*-fuzz.test.ts',
  'main/sandbox/**/*.test.ts',
  'main/process/**/*.test.ts',
  'main/adapters/mcp/mcp-*.test.ts',
  'main/mcp-server/mcp-serve*.test.ts',
  'main/cli/**/*.test.ts',
  'main/launcher/**/*.test.ts',
  'main/agent/crash-turn.test.ts',
  'main/store/crash.test.ts',
  'main/core/run-with-limit*.test.ts',
  'main/core/output-cap-notes.test.ts',
  'main/layers-lint.test.ts',
  'tools/builtin/download-render*.test.ts',
  'build/verify-package.test.ts',
];

const shared = {
  environment: 'node' as const,
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    // One temp folder per run, removed at its end (build/vitest-temp.ts).
    globalSetup: ['build/vitest-temp.ts'],
    projects: [
      { test: { ...shared, name: 'fast', include: ALL, exclude: ['**/node_modules/**', ...SLOW] } },
      { test: { ...shared, name: 'slow', include: SLOW, exclude: ['**/node_modules/**'] } },
    ],
  },
});
