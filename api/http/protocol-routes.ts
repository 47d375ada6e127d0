// The routes of the course testing protocol: GET/PUT/DELETE /api/protocols (the caller's protocols
// by client label, and CTPO's default), and GET/PUT/POST /api/protocols/runs/{jobId} (a finished
// run's protocol as it stands, a person's answer to a manual item, ready for launch). Same token
// rules, validation and errors as the other routes; a caller only ever sees and changes their own.
import { AppError } from '../errors.ts';
import { msg } from '../i18n/messages.ts';
import { answerItem, runProtocol, signOffRun, type SignOffParts } from '../jobs/sign-off.ts';
import type { JobRecord, ProtocolStore, StoredProtocol } from '../jobs/types.ts';
import { DEFAULT_PROTOCOL } from '../protocol/default-protocol.ts';
import { validateProtocol } from '../protocol/validate-protocol.ts';
import { PROTOCOL_NOTE_LIMIT, PROTOCOL_RUN_PREFIX, answerRequest, saveProtocolRequest, type ProtocolsAnswer, type RemoveProtocolAnswer, type RunProtocolAnswer } from './protocol-contract.ts';
import { clientLabelRule, INPUT_LIMITS } from '../engine/run-input-rules.ts';
import { jsonResponse } from './respond.ts';
import { authenticate, withErrors } from './routes.ts';
import type { ApiDeps } from './routes.ts';
import type { ApiRequest, ApiResponse } from './types.ts';
import type { Caller } from './access-token.ts';
import { asObject, parseJobId, readJsonBody } from './validate-request.ts';

function storeOf(deps: ApiDeps): ProtocolStore {
  if (deps.protocols === undefined) throw new Error('This API was started without a protocol store.');
  return deps.protocols;
}

function signOffParts(deps: ApiDeps): SignOffParts {
  if (deps.reports === undefined) throw new Error('This API was started without the report store.');
  return { protocols: storeOf(deps), reports: deps.reports };
}

/** DELETE /api/protocols?client= : the client label the query names. */
export function clientOfQuery(query: URLSearchParams | undefined): string {
  return clientOf(query?.get('client') ?? undefined);
}

function clientOf(value: unknown): string {
  const client = clientLabelRule.safeParse(value);
  if (!client.success) throw new AppError('invalid_input', msg('error.protocol.client', { max: INPUT_LIMITS.clientLabel }));
  return client.data;
}

async function whoAndWhen(caller: Caller, deps: ApiDeps) {
  return { by: (await deps.nameOf?.(caller)) ?? caller.username, at: (deps.now ?? (() => new Date()))().toISOString() };
}

/** GET, PUT and DELETE /api/protocols */
async function protocols(request: ApiRequest, deps: ApiDeps, caller: Caller): Promise<ApiResponse> {
  const store = storeOf(deps);
  if (request.method === 'GET') {
    const body: ProtocolsAnswer = { protocols: await store.list(caller.sub), default: DEFAULT_PROTOCOL };
    return jsonResponse(request, deps.allowedOrigins, 200, body);
  }
  if (request.method === 'PUT') {
    const fields = asObject(readJsonBody(request), 'client and protocol');
    const parsed = saveProtocolRequest.safeParse(fields);
    const client = parsed.success ? parsed.data.client : clientOf(fields.client);
    // Everything the protocol gets wrong is named at once; nothing is saved unless all is right.
    const protocol = validateProtocol(fields.protocol);
    const stored: StoredProtocol = { client, protocol, ...(await whoAndWhen(caller, deps)) };
    await store.put(caller.sub, stored);
    return jsonResponse(request, deps.allowedOrigins, 200, stored);
  }
  const client = clientOfQuery(request.query);
  const body: RemoveProtocolAnswer = { client, removed: await store.remove(caller.sub, client) };
  return jsonResponse(request, deps.allowedOrigins, 200, body);
}

async function ownJob(request: ApiRequest, deps: ApiDeps, caller: Caller): Promise<JobRecord> {
  const job = await deps.jobs.get(parseJobId(request.path.slice(PROTOCOL_RUN_PREFIX.length)));
  if (job === undefined) throw new AppError('not_found', msg('error.job.not-found'));
  if (job.owner !== caller.sub) throw new AppError('forbidden', msg('error.job.not-yours'));
  return job;
}

/** GET, PUT (an answer) and POST (ready for launch) /api/protocols/runs/{jobId} */
async function run(request: ApiRequest, deps: ApiDeps, caller: Caller): Promise<ApiResponse> {
  const parts = signOffParts(deps);
  if (request.method === 'PUT') {
    const body = readJsonBody(request);
    const job = await ownJob(request, deps, caller);
    const input = answerRequest.safeParse(asObject(body, 'itemId, status and note'));
    if (!input.success) throw new AppError('invalid_input', msg('error.protocol.answer', { max: PROTOCOL_NOTE_LIMIT }));
    const { itemId, status, note } = input.data;
    const answered: RunProtocolAnswer = await answerItem(job, { itemId, status, ...(note ? { note } : {}) }, await whoAndWhen(caller, deps), parts);
    return jsonResponse(request, deps.allowedOrigins, 200, answered);
  }
  const job = await ownJob(request, deps, caller);
  const body: RunProtocolAnswer = request.method === 'POST' ? await signOffRun(job, await whoAndWhen(caller, deps), parts) : await runProtocol(job, parts);
  return jsonResponse(request, deps.allowedOrigins, 200, body);
}

export function handleProtocols(request: ApiRequest, deps: ApiDeps): Promise<ApiResponse> {
  return withErrors(request, deps, async () => {
    const caller = await authenticate(request, deps);
    return request.path.startsWith(PROTOCOL_RUN_PREFIX) ? run(request, deps, caller) : protocols(request, deps, caller);
  });
}
