// Who is signed in, read from Amplify: signed in when a current user exists (its e-mail from the
// id token), signed out when the lookup fails. It also tidies the address bar after the return
// from the hosted login, once Amplify has finished with the code in it.
import { useCallback, useEffect, useState } from 'react';
import { fetchAuthSession, getCurrentUser, signInWithRedirect, signOut } from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';

export type AuthSession =
  | { status: 'checking' }
  | { status: 'signedOut' }
  | { status: 'signedIn'; email: string };

const LOGIN_RETURN_PARAMS = ['code', 'state', 'error', 'error_description'];

function hasLoginReturnParams(): boolean {
  const params = new URLSearchParams(window.location.search);
  return params.has('code') || params.has('state') || params.has('error');
}

/** Drops the hosted login's parameters from the address bar, keeping the path and anything else. */
export function removeLoginReturnParams(): void {
  const url = new URL(window.location.href);
  if (!LOGIN_RETURN_PARAMS.some((name) => url.searchParams.has(name))) return;
  for (const name of LOGIN_RETURN_PARAMS) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

async function readSession(): Promise<AuthSession> {
  try {
    // getCurrentUser waits for an in-flight redirect sign-in to finish, and makes no network call.
    const user = await getCurrentUser();
    const { tokens } = await fetchAuthSession();
    const email = tokens?.idToken?.payload.email;
    return { status: 'signedIn', email: typeof email === 'string' && email !== '' ? email : user.username };
  } catch {
    return { status: 'signedOut' };
  }
}

export function useAuthSession() {
  const [session, setSession] = useState<AuthSession>({ status: 'checking' });
  const [signInFailed, setSignInFailed] = useState(false);

  useEffect(() => {
    let active = true;
    const refresh = async () => {
      const next = await readSession();
      if (active) setSession(next);
      return next;
    };

    const returnedFromLogin = hasLoginReturnParams();
    void refresh().then((first) => {
      if (!active) return;
      // Only now is it safe: Amplify reads ?code and ?state itself while the sign-in completes,
      // and leaves them in place when it fails.
      removeLoginReturnParams();
      if (returnedFromLogin && first.status === 'signedOut') setSignInFailed(true);
    });

    const stopListening = Hub.listen('auth', ({ payload }) => {
      switch (payload.event) {
        case 'signedIn':
        case 'signInWithRedirect':
        case 'tokenRefresh_failure':
          void refresh();
          break;
        case 'signInWithRedirect_failure':
          setSignInFailed(true);
          removeLoginReturnParams();
          void refresh();
          break;
        case 'signedOut':
          setSession({ status: 'signedOut' });
          break;
      }
    });
    return () => {
      active = false;
      stopListening();
    };
  }, []);

  const signIn = useCallback(async () => {
    setSignInFailed(false);
    try {
      await signInWithRedirect();
    } catch (error) {
      console.error('CTPO: the hosted login could not be opened', error);
      setSignInFailed(true);
    }
  }, []);

  const signOutUser = useCallback(async () => {
    try {
      await signOut();
    } catch (error) {
      console.error('CTPO: sign-out did not complete', error);
    }
    setSession({ status: 'signedOut' });
  }, []);

  return { session, signInFailed, signIn, signOut: signOutUser };
}
