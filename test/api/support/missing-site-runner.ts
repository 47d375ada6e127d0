// A headless browser runner over a loopback course site where every file is missing (an image shows
// its alt text): what the tests that judge a page's own markup in the real browser start from.
// Needs Chromium (Debian's chromium, or CTPO_CHROMIUM), as CI installs it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findChromium } from '../../../api/a11y/a11y-runner.ts';
import { BrowserRunner, type BrowserRunnerOptions } from '../../../api/a11y/browser-runner.ts';
import { PageResources } from '../../../api/a11y/page-resources.ts';
import { GuardedHttpClient } from '../../../api/net/guarded-http.ts';

export interface MissingSiteRunner {
  runner: BrowserRunner;
  /** The course site's origin: a topic's address is under its /content/enforced/1-A/. */
  origin: string;
  close(): Promise<void>;
}

export async function startMissingSiteRunner(options: Partial<Pick<BrowserRunnerOptions, 'pages'>> = {}): Promise<MissingSiteRunner> {
  const chromium = findChromium();
  if (chromium === undefined) {
    throw new Error('These tests need Chromium: install Debian\'s "chromium" package, or set CTPO_CHROMIUM to a Chromium binary.');
  }
  const server = createServer((_request, response) => {
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const http = new GuardedHttpClient({ policy: { allowPrivateTargets: true, allowHttp: true }, timeoutMs: 5_000 });
  const resources = new PageResources({ http, siteOrigin: new URL(origin), orgUnitId: 1, sessionHeaders: () => ({}) });
  const runner = new BrowserRunner({ executablePath: chromium, resources, enhancedContrast: false, timeoutMs: 100_000, ...options });
  return {
    runner,
    origin,
    close: async () => {
      await runner.close();
      await http.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
