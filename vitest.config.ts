import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const webSrc = fileURLToPath(new URL('./web/src', import.meta.url));
const contract = fileURLToPath(new URL('./api/http/contract.ts', import.meta.url));

// One run, three projects: the app in jsdom, the API/engine/scripts in Node, the CDK app in Node.
// End-to-end tests have their own config (test/e2e/vitest.config.ts).
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: { alias: { '@contract': contract, '@': webSrc } },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['test/web/**/*.test.{ts,tsx}'],
          setupFiles: ['test/web/setup.ts'],
          restoreMocks: true,
          // Safety nets for a hung test, not measures of speed: a busy 2-core machine can take
          // many times the usual time (vitest's defaults are 5 s and 10 s).
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['test/api/**/*.test.ts', 'test/scripts/**/*.test.ts'],
          restoreMocks: true,
          // As above; the API tests start servers, worker threads, headless browsers and whole runs.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Runs' browsers keep the priority they start with here: by default they yield to all other
          // work (CTPO_BROWSER_NICENESS), and beside other busy work the suite's time limits would then
          // measure the machine. Its own test checks the default (test/api/checks/browser-runner.test.ts).
          env: { CTPO_BROWSER_NICENESS: 'off' },
        },
      },
      {
        test: {
          name: 'infra',
          environment: 'node',
          include: ['test/infra/**/*.test.ts'],
          // Synthesizing takes seconds, a full `cdk synth` (bundling included) a minute or more, and
          // many times that on a busy machine: these limits only stop a hung process.
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
