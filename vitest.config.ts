import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const webSrc = fileURLToPath(new URL('./web/src', import.meta.url));

// One run, three projects: the app in jsdom, the API/engine/scripts in Node, the CDK app in Node.
// End-to-end tests have their own config (test/e2e/vitest.config.ts).
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: { alias: { '@': webSrc } },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['test/web/**/*.test.{ts,tsx}'],
          setupFiles: ['test/web/setup.ts'],
          restoreMocks: true,
        },
      },
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['test/api/**/*.test.ts', 'test/scripts/**/*.test.ts'],
          restoreMocks: true,
          // A course run starts a headless browser for its accessibility checks: seconds on a busy
          // machine. The limit is a safety net, not a measure.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'infra',
          environment: 'node',
          include: ['test/infra/**/*.test.ts'],
          // Synthesizing a stack takes seconds; bundling is skipped in tests (see test/infra).
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
