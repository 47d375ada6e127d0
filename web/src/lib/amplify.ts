// Amplify's Cognito set-up from the runtime config: hosted login with code + PKCE, and the
// redirect rule that sends a developer's local copy back to itself and everyone else to the site.
import { Amplify } from 'aws-amplify';
import type { RuntimeConfig } from '@/lib/runtime-config';

const ALWAYS_LOCAL = ['localhost', '127.0.0.1', '::1'];

// location.hostname keeps IPv6 literals in brackets ("[::1]"); config authors may write either form.
function normaliseHost(host: string): string {
  return host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

export function isLocalHost(hostname: string, localHosts: readonly string[]): boolean {
  const host = normaliseHost(hostname);
  return [...ALWAYS_LOCAL, ...localHosts].some((local) => normaliseHost(local) === host);
}

/** Sign-in redirect and sign-out return target: the origin with a trailing slash. */
export function redirectTarget(config: RuntimeConfig, location: Pick<Location, 'hostname' | 'origin'>): string {
  return isLocalHost(location.hostname, config.localHosts) ? `${location.origin}/` : config.siteUrl;
}

export function configureAmplify(config: RuntimeConfig, location: Pick<Location, 'hostname' | 'origin'> = window.location): void {
  const target = redirectTarget(config, location);
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
        loginWith: {
          oauth: {
            domain: config.oauthDomain,
            scopes: ['openid', 'email', 'profile'],
            redirectSignIn: [target],
            redirectSignOut: [target],
            responseType: 'code',
          },
        },
      },
    },
  });
}
