// The stand-in's hosted sign-in page: the local twin of Cognito's managed login form.

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export interface SignInPageInput {
  /** The authorize parameters, carried through the form as hidden fields. */
  params: Record<string, string>;
  email?: string;
  error?: string;
}

export function renderSignInPage({ params, email = '', error }: SignInPageInput): string {
  const hidden = Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n      ');
  const alert = error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(error)}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Sign in · CTPO (local)</title>
  <style>
    body { font-family: system-ui, sans-serif; background: #f4f5f7; margin: 0; }
    main { max-width: 22rem; margin: 10vh auto; background: #fff; padding: 2rem; border-radius: 8px;
      box-shadow: 0 1px 4px rgba(0,0,0,.15); }
    h1 { font-size: 1.3rem; margin: 0 0 .25rem; }
    p.note { color: #555; font-size: .9rem; margin: 0 0 1.5rem; }
    label { display: block; font-weight: 600; margin: 1rem 0 .3rem; }
    input[type=email], input[type=password] { width: 100%; box-sizing: border-box; padding: .55rem;
      border: 1px solid #888; border-radius: 4px; font-size: 1rem; }
    button { margin-top: 1.5rem; width: 100%; padding: .65rem; font-size: 1rem; border: 0;
      border-radius: 4px; background: #0b5394; color: #fff; cursor: pointer; }
    .error { color: #a00; background: #fdecea; padding: .6rem; border-radius: 4px; }
  </style>
</head>
<body>
  <main>
    <h1>Sign in</h1>
    <p class="note">CTPO local sign-in (a stand-in for the hosted login).</p>
    ${alert}
    <form method="post" action="/oauth2/authorize">
      ${hidden}
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required>
      <button type="submit">Sign in</button>
    </form>
  </main>
</body>
</html>
`;
}

export function renderIdentityErrorPage(message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign-in error · CTPO (local)</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 10vh auto;">
  <h1>Sign-in error</h1>
  <p role="alert">${escapeHtml(message)}</p>
</body>
</html>
`;
}
