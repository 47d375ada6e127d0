// `npm run dev`: the Vite dev server with hot reload on http://localhost:5173, serving /config.json
// for either the running local stack (default: sign-in and API from `npm start`) or a deployed
// environment (`npm run dev -- --config-url https://<site>/config.json`).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, fetch as undiciFetch } from 'undici';
import { createServer } from 'vite';
import type { Plugin } from 'vite';
import { DEV_KEY_FILE, DEV_KEY_HEADER, DEV_ORIGIN_PREFIX } from '../api/local/dev-origins.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

const HELP = `Usage: npm run dev [-- --config-url <url>] [-- --port <port>]

Serves the app from web/src with hot reload on http://localhost:5173.

  (default)           sign-in and API from the local stack: start it first with npm start
  --config-url <url>  use a deployed environment's config, e.g. https://<site>/config.json
                      (its user pool client and API must allow http://localhost:5173)
  --port <port>       another port for the dev server (default 5173)

The local stack trusts the dev server's origin for sign-in and API calls only while it runs: the
dev server asks for it at start (with the key in the stack's data folder) and gives it up at exit.

Environment: CTPO_PORT and CTPO_DATA_DIR, as for npm start, to find the local stack.
`;

interface DevSettings {
  port: number;
  configUrl: string | undefined;
  stackPort: number;
  dataDir: string;
}

function settingsFrom(argv: string[], env: NodeJS.ProcessEnv): DevSettings {
  let configUrl: string | undefined;
  let port = 5173;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[i + 1];
    if (arg === '--config-url' && value !== undefined) {
      configUrl = value;
      i++;
    } else if (arg === '--port' && value !== undefined) {
      port = Number(value);
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--port must be a port number; it is ${JSON.stringify(value)}.`);
      i++;
    } else {
      throw new Error(`Unknown or incomplete option ${arg}. See npm run dev -- --help.`);
    }
  }
  const stackPort = Number(env.CTPO_PORT?.trim() || '8443');
  if (!Number.isInteger(stackPort) || stackPort < 1 || stackPort > 65535) throw new Error(`CTPO_PORT must be a port number; it is ${JSON.stringify(env.CTPO_PORT)}.`);
  return { port, configUrl, stackPort, dataDir: resolve(root, env.CTPO_DATA_DIR?.trim() || '.ctpo') };
}

function assertConfigShape(value: unknown, from: string): Record<string, unknown> {
  const fields = ['userPoolId', 'userPoolClientId', 'oauthDomain', 'apiUrl'];
  if (typeof value !== 'object' || value === null || Array.isArray(value) || fields.some((field) => typeof (value as Record<string, unknown>)[field] !== 'string')) {
    throw new Error(`${from} is not a CTPO config.json: it needs ${fields.join(', ')}.`);
  }
  return value as Record<string, unknown>;
}

/** The running local stack's config; its certificate is trusted explicitly, self-signed or not. */
async function localStackConfig(settings: DevSettings): Promise<Record<string, unknown>> {
  const certPath = resolve(settings.dataDir, 'tls', 'cert.pem');
  const url = `https://localhost:${settings.stackPort}/config.json`;
  const notRunning = `The local stack is not running at https://localhost:${settings.stackPort}. Start it first with npm start (in another terminal), or use --config-url.`;
  if (!existsSync(certPath)) throw new Error(notRunning);
  const agent = new Agent({ connect: { ca: readFileSync(certPath, 'utf8') } });
  try {
    const response = await undiciFetch(url, { dispatcher: agent, signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`${url} answered ${response.status}.`);
    return assertConfigShape(await response.json(), url);
  } catch (error) {
    throw new Error(notRunning, { cause: error });
  } finally {
    await agent.close();
  }
}

/**
 * Asks the running local stack to trust this dev server's origin (PUT) or to stop trusting it
 * (DELETE), with the key only a process of this user can read from the stack's data folder.
 */
async function askLocalStack(settings: DevSettings, method: 'PUT' | 'DELETE'): Promise<void> {
  const key = readFileSync(resolve(settings.dataDir, DEV_KEY_FILE), 'utf8').trim();
  const agent = new Agent({ connect: { ca: readFileSync(resolve(settings.dataDir, 'tls', 'cert.pem'), 'utf8') } });
  try {
    const url = `https://localhost:${settings.stackPort}${DEV_ORIGIN_PREFIX}${settings.port}`;
    const response = await undiciFetch(url, { method, headers: { [DEV_KEY_HEADER]: key }, dispatcher: agent, signal: AbortSignal.timeout(5000) });
    if (response.status !== 204) throw new Error(`${url} answered ${response.status}.`);
  } finally {
    await agent.close();
  }
}

async function deployedConfig(raw: string): Promise<Record<string, unknown>> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--config-url must be a web address; it is ${JSON.stringify(raw)}.`);
  }
  if (url.protocol !== 'https:') throw new Error('--config-url must be an https address.');
  const response = await fetch(url, { signal: AbortSignal.timeout(15_000), cache: 'no-store' });
  if (!response.ok) throw new Error(`${url.href} answered ${response.status}.`);
  return assertConfigShape(await response.json(), url.href);
}

function serveConfig(config: Record<string, unknown>): Plugin {
  const body = JSON.stringify(config, null, 2);
  return {
    name: 'ctpo-config-json',
    configureServer(server) {
      server.middlewares.use('/config.json', (_req, res) => {
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.setHeader('cache-control', 'no-cache');
        res.end(body);
      });
    },
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP);
    return;
  }
  const settings = settingsFrom(argv, process.env);
  const config = settings.configUrl === undefined ? await localStackConfig(settings) : await deployedConfig(settings.configUrl);
  const server = await createServer({
    configFile: resolve(root, 'web', 'vite.config.ts'),
    plugins: [serveConfig(config)],
    server: { port: settings.port, strictPort: true, host: 'localhost' },
  });
  await server.listen();
  const address = `http://localhost:${settings.port}/`;
  console.log(`\nVite dev server: ${address} (hot reload)`);
  if (settings.configUrl === undefined) {
    try {
      await askLocalStack(settings, 'PUT');
    } catch (error) {
      await server.close();
      throw new Error(`The local stack at https://localhost:${settings.stackPort} did not let this dev server sign in (${error instanceof Error ? error.message : String(error)}). Restart npm start, then npm run dev.`, { cause: error });
    }
    console.log(`Sign-in and API: the local stack at https://localhost:${settings.stackPort}, which trusts ${address} while this runs`);
  } else {
    console.log(`Sign-in and API: the environment of ${settings.configUrl}`);
    console.log(`Its user pool client must list ${address} as a callback and sign-out URL, and its API must allow that origin.`);
  }
  console.log('Press Ctrl-C to stop.\n');

  const stop = (): void => {
    // The stack stops trusting this origin: once the port is free, another process could take it.
    const forget = settings.configUrl === undefined ? askLocalStack(settings, 'DELETE').catch(() => undefined) : Promise.resolve();
    void forget.then(() => server.close()).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
