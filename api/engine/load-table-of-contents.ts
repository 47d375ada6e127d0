// Serves POST /api/toc: signs in to the client's Brightspace site and returns the course's table of
// contents in Brightspace's own shape. The credentials live only for the length of this call.
import type { TocResponse } from '../brightspace/types.ts';
import { BrightspaceSession, localSwitchFor, sitePolicy, siteOriginOf } from '../brightspace/session.ts';
import type { Resolver } from '../net/address-guard.ts';
import { GuardedHttpClient } from '../net/guarded-http.ts';
import { assertCredentials, assertOrgUnitId } from './run-input.ts';

export interface LoadTableOfContentsInput {
  siteUrl: string;
  username: string;
  password: string;
  orgUnitId: number;
  allowPrivateTargets: boolean;
  signal?: AbortSignal;
  /** DNS used by the address guard; tests inject answers here. */
  resolve?: Resolver;
}

export async function loadTableOfContents(input: LoadTableOfContentsInput): Promise<TocResponse> {
  return withSession(input, (session) => session.getToc(input.orgUnitId));
}

/**
 * The same table of contents as JSON text, ready to send. With `offThread`, a large answer is
 * parsed and written in a worker thread, so the thread that serves every other request stays free.
 */
export async function loadTableOfContentsJson(input: LoadTableOfContentsInput & { offThread?: boolean }): Promise<string> {
  return withSession(input, (session) => session.getTocJson(input.orgUnitId, { offThread: input.offThread }));
}

async function withSession<T>(input: LoadTableOfContentsInput, read: (session: BrightspaceSession) => Promise<T>): Promise<T> {
  assertCredentials(input.username, input.password);
  assertOrgUnitId(input.orgUnitId);
  // The local switch holds for a site on this machine or its network only (localSwitchFor).
  const allowPrivateTargets = await localSwitchFor(input.siteUrl, input.allowPrivateTargets === true, input.resolve);
  const origin = siteOriginOf(input.siteUrl, allowPrivateTargets);
  const http = new GuardedHttpClient({ policy: sitePolicy(allowPrivateTargets), resolve: input.resolve, timeoutMs: 20_000, connectionsPerHost: 2 });
  let session: BrightspaceSession | undefined;
  try {
    session = await BrightspaceSession.open({ origin, username: input.username, password: input.password, http, signal: input.signal });
    return await read(session);
  } finally {
    await session?.close();
    await http.close();
  }
}
