// The app's /config.json for the local stack: sign-in, token refresh and the API all on this origin;
// and the local server's settings read from its environment.
import { parseMaxAge } from '../engine/run-verdicts.ts';

export const LOCAL_POOL_ID = 'ca-central-1_Local';
export const LOCAL_CLIENT_ID = 'ctpo-local-web';
export const DEV_SERVER_ORIGIN = 'http://localhost:5173';

export interface LocalRuntimeConfig {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  oauthDomain: string;
  userPoolEndpoint: string;
  siteUrl: string;
  apiUrl: string;
  jobStatusApiUrl: string;
  pollIntervalMs: number;
}

/**
 * How long a link's good answer is reused by the next runs: `CTPO_LINK_MAX_AGE` (seconds, or `30m`,
 * `12h`, `1d`); undefined (the engine's default, one day) when unset or not such a value.
 */
export function linkMaxAgeFromEnv(env: Record<string, string | undefined> = process.env): number | undefined {
  const configured = env.CTPO_LINK_MAX_AGE;
  return configured === undefined ? undefined : (parseMaxAge(configured) ?? undefined);
}

/** The config for an app served from `appOrigin`, signing in at and calling `stackOrigin`. */
export function localRuntimeConfig(input: { stackOrigin: string; pollIntervalMs: number; poolId?: string; clientId?: string }): LocalRuntimeConfig {
  const stack = new URL(input.stackOrigin);
  const poolId = input.poolId ?? LOCAL_POOL_ID;
  return {
    region: poolId.split('_')[0]!,
    userPoolId: poolId,
    userPoolClientId: input.clientId ?? LOCAL_CLIENT_ID,
    // Amplify puts https:// in front of this itself.
    oauthDomain: stack.host,
    userPoolEndpoint: `${stack.origin}/`,
    siteUrl: `${stack.origin}/`,
    apiUrl: stack.origin,
    jobStatusApiUrl: stack.origin,
    pollIntervalMs: input.pollIntervalMs,
  };
}
