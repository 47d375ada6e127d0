// Serves POST /api/toc: signs in to the client's Brightspace site and returns the course's table of
// contents in Brightspace's own shape. The credentials live only for the length of this call.
import type { TocResponse } from '../http/contract.ts';
import { BrightspaceSession, sitePolicy, siteOriginOf } from '../brightspace/session.ts';
import type { Resolver } from '../net/address-guard.ts';
import { GuardedHttpClient } from '../net/guarded-http.ts';
import { assertCredentials, assertOrgUnitId } from './validate-input.ts';

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
  assertCredentials(input.username, input.password);
  assertOrgUnitId(input.orgUnitId);
  const origin = siteOriginOf(input.siteUrl, input.allowPrivateTargets === true);
  const http = new GuardedHttpClient({ policy: sitePolicy(input.allowPrivateTargets === true), resolve: input.resolve, timeoutMs: 20_000, connectionsPerHost: 2 });
  let session: BrightspaceSession | undefined;
  try {
    session = await BrightspaceSession.open({ origin, username: input.username, password: input.password, http, signal: input.signal });
    return await session.getToc(input.orgUnitId);
  } finally {
    await session?.close();
    await http.close();
  }
}
