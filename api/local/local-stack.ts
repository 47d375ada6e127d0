// The local stack: one HTTPS origin serving the built app, its /config.json, the identity
// stand-in, the QA API and the reports, with jobs in SQLite and runs in a worker pool. Everything
// is set through LocalStackOptions; only the command-line entry (scripts/start.ts) reads the
// environment.
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { loadTableOfContentsJson } from '../engine/load-table-of-contents.ts';
import { bearerTokenOf, createIssuerTokenVerifier } from '../http/access-token.ts';
import { MAX_BODY_BYTES } from '../http/contract.ts';
import { createApi } from '../http/create-api.ts';
import { createConcurrencyLimit } from '../http/concurrency-limit.ts';
import { AppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';
import { failureDetail } from '../log.ts';
import { errorResponse } from '../http/respond.ts';
import { languageOfRequest } from '../http/routes.ts';
import type { ApiRequest } from '../http/types.ts';
import type { Resolver } from '../net/address-guard.ts';
import { createBaselineSource } from '../jobs/baseline.ts';
import { openSqliteProtocolStore } from '../jobs/sqlite-protocol-store.ts';
import { failInterruptedJobs } from '../jobs/fail-interrupted-jobs.ts';
import { createFileReportStore } from '../jobs/file-report-store.ts';
import { openSqliteDismissalStore } from '../jobs/sqlite-dismissal-store.ts';
import type { SqliteDismissalStore } from '../jobs/sqlite-dismissal-store.ts';
import { createLocalJobRunner } from '../jobs/local-job-runner.ts';
import type { LocalJobRunner } from '../jobs/local-job-runner.ts';
import { openSqliteJobStore } from '../jobs/sqlite-job-store.ts';
import type { SqliteJobStore } from '../jobs/sqlite-job-store.ts';
import { createIdentityProvider } from './identity/identity-provider.ts';
import type { IdentityProvider, IdentityUser } from './identity/identity-provider.ts';
import { loadOrCreateSigningKey } from './identity/signing-key.ts';
import { DEV_KEY_FILE, createDevOriginRoute, writeDevKey } from './dev-origins.ts';
import { LOCAL_CLIENT_ID, LOCAL_POOL_ID, linkMaxAgeFromEnv, localRuntimeConfig } from './local-config.ts';
import { apiRequestHead, hasBody, isClientGone, listen, readApiBody, writeApiResponse } from './node-http.ts';
import type { LocalResponse } from './node-http.ts';
import { loadOrCreateReportKey } from './report-link-key.ts';
import { openReportLinkRevocations } from './report-link-revocations.ts';
import { REPORTS_PREFIX, createReportsRoute, keyLookup } from './reports-route.ts';
import { startRetention } from './retention.ts';
import { createStaticApp } from './static-app.ts';
import { ensureTlsCertificate } from './tls-certificate.ts';

export const DEFAULT_USER: IdentityUser = { email: 'qa@example.com', password: 'ctpo-local' };

/** Limits on the connections of the local server. */
export interface ConnectionLimits {
  /** Connections open at once; more are dropped as they arrive. */
  maxConnections: number;
  /** A TLS handshake not finished in this time drops the connection. */
  handshakeTimeoutMs: number;
  /** A request's headers not complete in this time ends the connection (408). */
  headersTimeoutMs: number;
  /** A whole request not received in this time ends the connection. */
  requestTimeoutMs: number;
  /** A kept-alive connection with no new request for this long is closed. */
  keepAliveTimeoutMs: number;
  /** A connection with no traffic at all for this long is closed (above the longest answer, POST /api/toc). */
  idleTimeoutMs: number;
  /**
   * Connections one client address may hold at once: one client cannot take every slot. At the cap
   * its oldest connection with no request in progress is closed for the new one.
   */
  maxConnectionsPerClient: number;
  /** An answer the client does not read for this long (its writes stay buffered) ends the connection. */
  drainTimeoutMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 1000,
  handshakeTimeoutMs: 10_000,
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 120_000,
  // A browser opens 6 connections per origin, and a few tabs and the job monitor more: 100 is far
  // above any real client and a tenth of the server's slots.
  maxConnectionsPerClient: 100,
  // A client on the slowest link reads an answer's next bytes within seconds; one that stops reading
  // would otherwise hold its slot until the idle timeout.
  drainTimeoutMs: 15_000,
};

/**
 * Ends the connection of an answer whose client stops reading it, so its slot is not held until the
 * idle timeout. What the client has not taken waits in the socket's buffer: each period, it must
 * have shrunk (a slow reader is not a stalled one), or the connection is ended.
 */
function endIfNotRead(res: ServerResponse, drainTimeoutMs: number): void {
  const socket = res.socket;
  if (socket === null || socket.writableLength === 0) return;
  let waiting = socket.writableLength;
  const timer = setInterval(() => {
    const now = socket.writableLength;
    if (now === 0) stop();
    else if (now >= waiting) socket.destroy();
    else waiting = now;
  }, drainTimeoutMs);
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    socket.off('drain', stop);
    socket.off('close', stop);
  };
  socket.once('drain', stop);
  socket.once('close', stop);
}

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bodyNotAllowed(request: ApiRequest): LocalResponse {
  const error = new AppError('invalid_input', msg('error.request.body-not-allowed', { method: request.method }));
  return errorResponse(request, [], error, { language: languageOfRequest(request) });
}

// The identity stand-in's routes that read a body: the sign-in form, the token endpoint, and the
// Cognito-style calls (token refresh, revocation) Amplify posts to the origin itself.
const IDENTITY_BODY_PATHS = new Set(['/oauth2/authorize', '/oauth2/token', '/']);

export interface LocalStackOptions {
  /** Certificate, signing keys (sign-in, report links), job database and reports live here. */
  dataDir: string;
  /** 8443 by default; 0 picks a free port. */
  port?: number;
  /** Addresses to listen on. Default 127.0.0.1 and ::1 (when the machine has IPv6). */
  hosts?: string[];
  /** Host name of the public origin (https://<publicHost>:<port>). Default localhost. */
  publicHost?: string;
  /** The built app (web/dist); null serves the API, sign-in and reports only. */
  webDist?: string | null;
  users?: IdentityUser[];
  /**
   * Other app origins allowed to sign in and call the API from the start. Default none: `npm run dev`
   * asks for its own while it runs (dev-origins.ts).
   */
  devOrigins?: string[];
  /** Runs at once. Default 2. */
  poolSize?: number;
  maxQueued?: number;
  maxActiveRunsPerUser?: number;
  /** Runs not yet finished across all users. Default: what the pool runs and queues at once. */
  maxActiveRuns?: number;
  /** The app's job polling interval, written into /config.json. Default 10 000 ms. */
  pollIntervalMs?: number;
  /** Days a finished run and its report are kept (null: for ever). Default 30, as on AWS. */
  reportExpiryDays?: number | null;
  /**
   * The address guard's local switch; on by default here, the demo course lives on loopback. It holds
   * for the runs of a site on a loopback or private address only (localSwitchFor).
   */
  allowPrivateTargets?: boolean;
  runTimeoutMs?: number;
  stopGraceMs?: number;
  progressIntervalMs?: number;
  tocTimeoutMs?: number;
  /** Tables of contents one user may be loading at once. Default 2. */
  maxTocLoadsPerUser?: number;
  accessTokenTtlSeconds?: number;
  /** Caps and time limits on connections (DEFAULT_CONNECTION_LIMITS where not given). */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Try mkcert for a browser-trusted certificate. Default true. */
  useMkcert?: boolean;
  /** The job worker's entry module (tests use a scripted one). */
  workerEntry?: URL;
  /** How long a report link job-status hands out keeps working. Default 12 hours. */
  reportLinkLifetimeMs?: number;
  /** How long a link's good answer is reused by later runs of a course; default `CTPO_LINK_MAX_AGE`, else one day. */
  linkMaxAgeMs?: number;
  /** The clock report links are signed and checked by (tests expire links with it). */
  now?: () => Date;
  /** The identity stand-in's clock, in ms (tests expire tokens with it). */
  identityNow?: () => number;
  /** DNS for the API's address checks (tests fake public answers). Default: the system resolver. */
  resolve?: Resolver;
  log?: (line: string) => void;
}

export interface LocalStack {
  /** e.g. https://localhost:8443 */
  origin: string;
  /** The certificate (PEM) clients must trust, and where it is on disk. */
  ca: string;
  certPath: string;
  certificateSource: 'mkcert' | 'self-signed';
  identity: IdentityProvider;
  jobs: SqliteJobStore;
  dismissals: SqliteDismissalStore;
  runner: LocalJobRunner;
  /** Jobs found unfinished at start and ended FAILED. */
  recoveredJobs: number;
  /** Finished runs deleted at start because they were older than the expiry. */
  expiredJobs: number;
  /** Days a run is kept; null: for ever. */
  reportExpiryDays: number | null;
  allowPrivateTargets: boolean;
  close(): Promise<void>;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** A client's TCP connection, by its port, with the requests it has in progress. */
interface ClientConnection {
  socket: Socket;
  port: number;
  inProgress: number;
}

function removeFrom(list: string[], value: string): void {
  const at = list.indexOf(value);
  if (at !== -1) list.splice(at, 1);
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const log = options.log ?? ((line: string) => console.log(line));
  const allowPrivateTargets = options.allowPrivateTargets ?? true;
  const dataDir = options.dataDir;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const reportsDir = join(dataDir, 'reports');
  mkdirSync(reportsDir, { recursive: true });

  const tls = await ensureTlsCertificate(join(dataDir, 'tls'), { useMkcert: options.useMkcert });
  const signingKey = loadOrCreateSigningKey(join(dataDir, 'identity-signing-key.pem'));
  const reportKey = loadOrCreateReportKey(join(dataDir, 'report-link-key.json'));
  const jobs = openSqliteJobStore({ path: join(dataDir, 'jobs.sqlite') });
  const dismissals = openSqliteDismissalStore({ path: join(dataDir, 'jobs.sqlite') });
  const protocols = openSqliteProtocolStore({ path: join(dataDir, 'jobs.sqlite') });
  const recoveredJobs = await failInterruptedJobs(jobs);
  const reportFiles = createFileReportStore(reportsDir);
  const reportExpiryDays = options.reportExpiryDays === undefined ? 30 : options.reportExpiryDays;
  const retention = startRetention({ jobs, reports: reportFiles, days: reportExpiryDays, log });
  const expiredJobs = await retention.sweep();

  // The handler needs the origin, which is known once the first socket listens (port 0).
  let dispatch: (request: ApiRequest) => Promise<LocalResponse> = async () => ({ status: 503, headers: {}, body: 'Starting.' });
  // Answers a request before its body is read, or says the body may be read (undefined).
  let beforeBody: (request: ApiRequest) => Promise<LocalResponse | undefined> = async () => undefined;
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits };
  const servers: Server[] = [];
  const makeServer = (): Server => {
    const server = createServer(
      {
        cert: tls.cert,
        key: tls.key,
        // A connection that never finishes its TLS handshake is dropped.
        handshakeTimeout: limits.handshakeTimeoutMs,
        connectionsCheckingInterval: Math.min(limits.headersTimeoutMs, 30_000),
      },
      (req, res) => {
        void (async () => {
          try {
            const request = apiRequestHead(req, res);
            const bodySent = hasBody(req);
            // A GET, HEAD or OPTIONS takes no body here, and nothing checks a token before one would
            // be read: one that says it has a body is answered at once and its connection closed,
            // unread, so no one can make the server wait on (or buffer) a body no route reads.
            let response = bodySent && BODYLESS_METHODS.has(request.method) ? bodyNotAllowed(request) : await beforeBody(request);
            if (response === undefined && bodySent) request.body = await readApiBody(req, MAX_BODY_BYTES);
            response ??= await dispatch(request);
            // A body left unread, or one over the limit, is not read on: the connection closes instead.
            const unread = bodySent && request.body === undefined;
            const tooLarge = Buffer.byteLength(request.body ?? '') > MAX_BODY_BYTES;
            writeApiResponse(res, response, { head: request.method === 'HEAD', close: unread || tooLarge });
            endIfNotRead(res, limits.drainTimeoutMs);
          } catch (error) {
            // A client that hung up needs no answer and is not a fault of the server: nothing to log.
            if (isClientGone(error) || req.destroyed || res.destroyed) {
              res.destroy();
              return;
            }
            log(`request ${req.method} ${req.url?.split('?')[0]?.slice(0, 200)} failed: ${failureDetail(error, [])}`);
            if (!res.headersSent) {
              writeApiResponse(res, { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'Something went wrong on the CTPO server.', code: 'internal' }) }, { close: true });
            } else {
              res.destroy();
            }
          }
        })();
      },
    );
    // Slow, idle or broken clients must not hold sockets open forever, nor open without bound.
    server.requestTimeout = limits.requestTimeoutMs;
    server.headersTimeout = limits.headersTimeoutMs;
    server.keepAliveTimeout = limits.keepAliveTimeoutMs;
    server.timeout = limits.idleTimeoutMs;
    server.maxConnections = limits.maxConnections;
    // Per client address, counted from the TCP connection on (before its handshake can stall), oldest
    // first, each with the requests it has in progress. On a loopback-only listener every client is
    // 127.0.0.1 or ::1, so a cap that refused new connections would let one local process holding
    // them all lock everyone else out: at the cap, the address's oldest connection with no request in
    // progress (idle, or its handshake or headers not done) is closed for the new one instead, and a
    // new one is refused only while every connection of the address is busy answering.
    const perClient = new Map<string, Map<number, ClientConnection>>();
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const held = perClient.get(address) ?? new Map<number, ClientConnection>();
      if (held.size >= limits.maxConnectionsPerClient) {
        const idle = [...held.values()].find((connection) => connection.inProgress === 0);
        if (idle === undefined) {
          socket.destroy();
          return;
        }
        held.delete(idle.port);
        idle.socket.destroy();
      }
      const port = socket.remotePort ?? -1;
      held.set(port, { socket, port, inProgress: 0 });
      perClient.set(address, held);
      socket.once('close', () => {
        if (held.get(port)?.socket === socket) held.delete(port);
        if (held.size === 0 && perClient.get(address) === held) perClient.delete(address);
      });
    });
    // A request is in progress from its headers until its answer is handed to the system or fails.
    // The TLS socket a request comes on is another object than the TCP one: the client's port joins them.
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const connection = perClient.get(req.socket.remoteAddress ?? '')?.get(req.socket.remotePort ?? -1);
      if (connection === undefined) return;
      connection.inProgress++;
      res.once('close', () => connection.inProgress--);
    });
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      // An HTTP-level fault gets its status; anything below HTTP (a TLS handshake that failed or
      // never finished) has no channel to answer on, so the connection is just dropped.
      const code = error.code ?? '';
      const status = code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : code.startsWith('HPE_') ? '400 Bad Request' : undefined;
      if (status !== undefined && socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
      else socket.destroy();
    });
    servers.push(server);
    return server;
  };

  const hosts = options.hosts ?? ['127.0.0.1', '::1'];
  const askedPort = options.port ?? 8443;
  let port = askedPort;
  try {
    port = await listen(makeServer(), askedPort, hosts[0]!);
    for (const host of hosts.slice(1)) {
      try {
        await listen(makeServer(), port, host);
      } catch (error) {
        // A machine without IPv6 loopback still serves on IPv4; so does a free port picked on the
        // first address that happens to be taken on the next one.
        const code = (error as NodeJS.ErrnoException).code;
        const skippable = code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT' || (askedPort === 0 && code === 'EADDRINUSE');
        if (!skippable) throw error;
        servers.pop();
      }
    }
  } catch (error) {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    retention.stop();
    jobs.close();
    dismissals.close();
    protocols.close();
    throw error;
  }

  const publicHost = options.publicHost ?? 'localhost';
  const origin = `https://${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${port}`;
  // The same stack answers at every loopback name; each is its own browser origin.
  const ownOrigins = [...new Set([origin, ...LOOPBACK_NAMES.map((name) => `https://${name}:${port}`)])];
  // Read at each request: the dev server's origin joins these lists while `npm run dev` asks for it.
  const appOrigins = [...ownOrigins, ...(options.devOrigins ?? [])];
  const returnAddresses = appOrigins.map((app) => `${app}/`);
  const devOrigins = createDevOriginRoute({
    key: writeDevKey(join(dataDir, DEV_KEY_FILE)),
    trust: (dev) => {
      if (appOrigins.includes(dev)) return;
      appOrigins.push(dev);
      returnAddresses.push(`${dev}/`);
    },
    forget: (dev) => {
      if (ownOrigins.includes(dev) || (options.devOrigins ?? []).includes(dev)) return;
      removeFrom(appOrigins, dev);
      removeFrom(returnAddresses, `${dev}/`);
    },
  });

  const identity = createIdentityProvider({
    origin,
    poolId: LOCAL_POOL_ID,
    clients: [{ clientId: LOCAL_CLIENT_ID, redirectUris: returnAddresses, logoutUris: returnAddresses }],
    users: options.users ?? [DEFAULT_USER],
    signingKey,
    corsOrigins: appOrigins,
    formOrigins: ownOrigins,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds,
    revocationsPath: join(dataDir, 'identity-revocations.json'),
    now: options.identityNow,
  });

  const runner = createLocalJobRunner({
    jobs,
    baselines: createBaselineSource({ history: jobs, dismissals, reports: reportFiles, protocols }),
    reportsDir,
    allowPrivateTargets,
    concurrency: options.poolSize,
    maxQueued: options.maxQueued,
    runTimeoutMs: options.runTimeoutMs,
    stopGraceMs: options.stopGraceMs,
    workerEntry: options.workerEntry,
    progressIntervalMs: options.progressIntervalMs,
    // Runs keep their verdicts beside the jobs, so that the next run of a course re-checks only what changed.
    verdictsPath: join(dataDir, 'jobs.sqlite'),
    linkMaxAgeMs: options.linkMaxAgeMs ?? linkMaxAgeFromEnv(),
    log,
  });

  const linkRevocations = openReportLinkRevocations(join(dataDir, 'report-link-revocations.json'));
  const verifier = createIssuerTokenVerifier({ issuer: identity.issuer, jwksUri: identity.jwksUri, clientId: LOCAL_CLIENT_ID, ca: tls.cert, jwks: identity.jwks });
  const api = createApi({
    verifier,
    jobs,
    history: jobs,
    dismissals,
    protocols,
    reports: reportFiles,
    nameOf: async (caller) => identity.emailOf(caller.sub) ?? caller.username,
    runner,
    // One thread serves everyone here: a large answer is parsed and written in a worker thread.
    loadTableOfContents: (input) => loadTableOfContentsJson({ ...input, offThread: true }),
    tocLoads: createConcurrencyLimit(options.maxTocLoadsPerUser ?? 2),
    outputUrl: `${origin}${REPORTS_PREFIX}`,
    reportSigningKey: async () => reportKey,
    reportLinkLifetimeMs: options.reportLinkLifetimeMs,
    reportLinkRevocations: linkRevocations,
    now: options.now,
    allowedOrigins: appOrigins,
    allowPrivateTargets,
    maxActiveRunsPerUser: options.maxActiveRunsPerUser ?? 3,
    maxActiveRuns: options.maxActiveRuns ?? runner.capacity(),
    tocTimeoutMs: options.tocTimeoutMs,
    resolve: options.resolve,
    log,
  });
  const reports = createReportsRoute({ reportsDir, keyOf: keyLookup(reportKey), revokedUpTo: linkRevocations.revokedUpTo, now: options.now });
  const app = options.webDist === null ? undefined : createStaticApp(options.webDist ?? 'web/dist');
  const pollIntervalMs = options.pollIntervalMs ?? 10_000;

  beforeBody = async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return undefined;
    // An API call's token is checked before its body is read: a caller without one cannot make the
    // server buffer anything.
    if (request.path === '/api' || request.path.startsWith('/api/')) {
      try {
        await verifier.verify(bearerTokenOf(request.headers.authorization));
        return undefined;
      } catch (error) {
        return errorResponse(request, appOrigins, error, { language: languageOfRequest(request) });
      }
    }
    // The sign-in form, the token endpoint and the token-refresh call read a form or JSON; nothing
    // else here takes a body, so none is read.
    return IDENTITY_BODY_PATHS.has(request.path) ? undefined : dispatch(request);
  };

  dispatch = async (request) => {
    if (request.path === '/api' || request.path.startsWith('/api/')) return api(request);
    if (request.path === '/reports' || request.path.startsWith(REPORTS_PREFIX)) return reports(request);
    const dev = devOrigins(request);
    if (dev !== undefined) return dev;
    const signIn = await identity.handle(request);
    if (signIn !== undefined) return signIn;
    if (request.path === '/config.json') {
      // Answer for the origin the browser used, so the app stays same-origin at any loopback name.
      const asked = `https://${request.headers.host ?? ''}`;
      const stackOrigin = ownOrigins.includes(asked) ? asked : origin;
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
        body: JSON.stringify(localRuntimeConfig({ stackOrigin, pollIntervalMs }), null, 2),
      };
    }
    if (app !== undefined) return app.handle(request);
    return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not found.' };
  };

  let closing: Promise<void> | undefined;
  return {
    origin,
    ca: tls.cert,
    certPath: tls.certPath,
    certificateSource: tls.source,
    identity,
    jobs,
    dismissals,
    runner,
    recoveredJobs,
    expiredJobs,
    reportExpiryDays,
    allowPrivateTargets,
    close() {
      closing ??= (async () => {
        const stopped = Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
        for (const server of servers) server.closeIdleConnections();
        await runner.close();
        // Pollers on keep-alive connections get a moment for their last answer, then are cut.
        const cut = setTimeout(() => servers.forEach((server) => server.closeAllConnections()), 2000);
        await stopped;
        clearTimeout(cut);
        retention.stop();
        jobs.close();
        dismissals.close();
        protocols.close();
      })();
      return closing;
    },
  };
}
