import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'main/**/*.test.ts',
      'tools/**/*.test.ts',
      'preload/**/*.test.ts',
      'renderer/**/*.test.{ts,tsx}',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
