// /api/protocols, with the wire contract: the user's protocols by client, CTPO's default, and the
// sign-off of a finished run (its protocol as it stands, answers, ready for launch).
import { apiRequest } from '@/lib/api-client';
import { protocolsAnswer, runProtocolAnswer, storedProtocol, type ManualAnswerStatus, type Protocol, type ProtocolsAnswer, type RunProtocolAnswer, type StoredProtocolItem } from '@contract';

export type { Protocol, ProtocolsAnswer, RunProtocolAnswer, StoredProtocolItem };

/** GET /api/protocols */
export async function listProtocols(signal?: AbortSignal): Promise<ProtocolsAnswer> {
  return protocolsAnswer.parse(await apiRequest<unknown>('/api/protocols', signal ? { signal } : {}));
}

/** PUT /api/protocols: refused with the server's message when the protocol is not valid. */
export async function saveProtocol(client: string, protocol: unknown): Promise<StoredProtocolItem> {
  return storedProtocol.parse(await apiRequest<unknown>('/api/protocols', { method: 'PUT', body: { client, protocol } }));
}

/** DELETE /api/protocols?client= */
export async function removeProtocol(client: string): Promise<void> {
  await apiRequest<unknown>(`/api/protocols?${new URLSearchParams({ client }).toString()}`, { method: 'DELETE' });
}

const runPath = (taskArn: string) => `/api/protocols/runs/${encodeURIComponent(taskArn)}`;

/** GET /api/protocols/runs/{id}: the run's protocol as it stands now. */
export async function getRunProtocol(taskArn: string, signal?: AbortSignal): Promise<RunProtocolAnswer> {
  return runProtocolAnswer.parse(await apiRequest<unknown>(runPath(taskArn), signal ? { signal } : {}));
}

/** PUT /api/protocols/runs/{id}: a person's answer to a manual item. */
export async function answerItem(taskArn: string, itemId: string, status: ManualAnswerStatus, note: string): Promise<RunProtocolAnswer> {
  const body = { itemId, status, ...(note.trim() === '' ? {} : { note: note.trim() }) };
  return runProtocolAnswer.parse(await apiRequest<unknown>(runPath(taskArn), { method: 'PUT', body }));
}

/** POST /api/protocols/runs/{id}: marks the run ready for launch. */
export async function markReady(taskArn: string): Promise<RunProtocolAnswer> {
  return runProtocolAnswer.parse(await apiRequest<unknown>(runPath(taskArn), { method: 'POST' }));
}
