// Builds the app once before the end-to-end tests, when web/dist is missing or older than web/src:
// the tests drive the built app, as npm start serves it.
import { fileURLToPath } from 'node:url';
import { appBuildState } from '../../api/local/app-build.ts';

export default async function setup(): Promise<void> {
  const webDir = fileURLToPath(new URL('../../web', import.meta.url));
  const state = appBuildState(webDir);
  if (state.state === 'fresh') return;
  console.log(state.state === 'missing' ? 'e2e: building the app (web/dist is missing).' : `e2e: building the app (web/dist is older than ${state.newestSource}).`);
  const { build } = await import('vite');
  await build({ configFile: `${webDir}/vite.config.ts`, logLevel: 'warn' });
}
