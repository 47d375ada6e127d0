// Test support: the local hosted-login client (shared with the scripts), and token decoding.
export {
  authorizeQuery,
  exchangeCode,
  httpsClient,
  pkcePair,
  postSignInForm,
  signIn,
  signInForCode,
} from '../../../api/local/identity/hosted-login-client.ts';
export type { CognitoTokens, HttpsClient, SignInSetup } from '../../../api/local/identity/hosted-login-client.ts';

export function decodeJwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}
