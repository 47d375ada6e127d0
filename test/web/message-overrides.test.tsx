// Runtime message overrides (config.json i18n.batchUrl / i18n.collectionUrl): fetched, merged over
// the built-in messages, cached in Cache Storage with their entity tag, reused on 304, and on
// failure logged while the built-in messages stay. The network is faked at fetch; Cache Storage by
// a small in-memory one, as jsdom has none.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import frCA from '@/locales/fr-CA.json';
import { MessageOverrideLoader, OVERRIDE_CACHE_NAME } from '@/lib/i18n/message-overrides';
import { FakeBackend, json, TEST_CONFIG, type RecordedRequest } from './support/fake-backend';
import { installMemoryCaches, type MemoryCacheStorage } from './support/memory-cache-storage';
import { renderApp } from './support/render-app';

const I18N_ORIGIN = 'https://i18n.example.ca';
const COLLECTION_URL = `${I18N_ORIGIN}/overrides`;
const BATCH_URL = `${I18N_ORIGIN}/overrides/batch`;
const EN_RESOURCE = `${COLLECTION_URL}/ctpo/en`;

let storage: MemoryCacheStorage;
let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  localStorage.clear();
  storage = installMemoryCaches();
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

function backendWith(i18n: Record<string, string>) {
  return new FakeBackend({ ...TEST_CONFIG, i18n });
}

function withEtag(body: unknown, etag: string): Response {
  const response = json(body);
  response.headers.set('ETag', etag);
  return response;
}

async function renderSignInScreen(buttonName: string) {
  const rendered = renderApp();
  await screen.findByRole('button', { name: buttonName });
  return rendered;
}

async function seedCache(url: string, body: unknown, etag: string) {
  const cache = await storage.open(OVERRIDE_CACHE_NAME);
  await cache.put(url, new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json', ETag: etag } }));
}

describe('overrides from the collection address', () => {
  it('GETs <collection>/ctpo/<locale>, shows the overriding text, and caches it with its entity tag', async () => {
    const backend = backendWith({ collectionUrl: COLLECTION_URL })
      .on('GET', '/overrides/ctpo/en', () => withEtag({ 'auth.signIn': 'Sign in with your school account' }, '"v1"'), I18N_ORIGIN)
      .install();
    await renderSignInScreen('Sign in with your school account');

    const [request] = backend.requestsTo('/overrides/ctpo/en');
    expect(request?.url.href).toBe(EN_RESOURCE);
    expect(request?.headers.has('If-None-Match')).toBe(false);
    // Untouched messages stay built in.
    expect(screen.getByText('Sign in to test a Brightspace course before it goes live.')).toBeInTheDocument();
    await waitFor(async () =>
      expect(await storage.stored(OVERRIDE_CACHE_NAME, EN_RESOURCE)).toEqual({
        body: { 'auth.signIn': 'Sign in with your school account' },
        etag: '"v1"',
      }),
    );
  });

  it('asks for the shown language’s resource only', async () => {
    localStorage.setItem('ctpo.language', 'fr-CA');
    const backend = backendWith({ collectionUrl: COLLECTION_URL })
      .on('GET', '/overrides/ctpo/fr-CA', () => withEtag({ 'auth.signIn': 'Ouvrir une session CTPO' }, '"f1"'), I18N_ORIGIN)
      .install();
    await renderSignInScreen('Ouvrir une session CTPO');
    expect(backend.requestsTo('/overrides/*').map((request) => request.url.pathname)).toEqual(['/overrides/ctpo/fr-CA']);
  });

  it('reuses the cached copy by its entity tag: shown at once, If-None-Match sent, kept on 304', async () => {
    await seedCache(EN_RESOURCE, { 'auth.signIn': 'Enter CTPO' }, '"v1"');
    let answer!: (response: Response) => void;
    const backend = backendWith({ collectionUrl: COLLECTION_URL })
      .on('GET', '/overrides/ctpo/en', () => new Promise<Response>((resolve) => (answer = resolve)), I18N_ORIGIN)
      .install();

    // Shown from the cache while the server has not answered yet.
    await renderSignInScreen('Enter CTPO');
    const [request] = backend.requestsTo('/overrides/ctpo/en');
    expect(request?.headers.get('If-None-Match')).toBe('"v1"');
    expect(request?.cache).toBe('no-store');

    answer(new Response(null, { status: 304, headers: { ETag: '"v1"' } }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('button', { name: 'Enter CTPO' })).toBeInTheDocument();
    expect(await storage.stored(OVERRIDE_CACHE_NAME, EN_RESOURCE)).toEqual({ body: { 'auth.signIn': 'Enter CTPO' }, etag: '"v1"' });
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('replaces the cached copy when the server has a new version', async () => {
    await seedCache(EN_RESOURCE, { 'auth.signIn': 'Enter CTPO' }, '"v1"');
    backendWith({ collectionUrl: COLLECTION_URL })
      .on('GET', '/overrides/ctpo/en', () => withEtag({ 'auth.signIn': 'Enter CTPO, version 2' }, '"v2"'), I18N_ORIGIN)
      .install();
    await renderSignInScreen('Enter CTPO, version 2');
    await waitFor(async () => expect((await storage.stored(OVERRIDE_CACHE_NAME, EN_RESOURCE))?.etag).toBe('"v2"'));
  });

  it('treats 404 as no overrides for that language, without an error', async () => {
    await seedCache(EN_RESOURCE, { 'auth.signIn': 'Enter CTPO' }, '"v1"');
    backendWith({ collectionUrl: COLLECTION_URL })
      .on('GET', '/overrides/ctpo/en', () => new Response('Not found', { status: 404 }), I18N_ORIGIN)
      .install();
    renderApp();
    await screen.findByRole('button', { name: 'Sign in' });
    await waitFor(async () => expect(await storage.stored(OVERRIDE_CACHE_NAME, EN_RESOURCE)).toBeUndefined());
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('logs "Failed to fetch overrides." and keeps the built-in messages when the GET fails', async () => {
    const backend = backendWith({ collectionUrl: COLLECTION_URL })
      .on('GET', '/overrides/ctpo/en', () => new Response('Server error', { status: 500 }), I18N_ORIGIN)
      .install();
    await renderSignInScreen('Sign in');
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Failed to fetch overrides.', 'ctpo/en', 'status 500'));
    expect(backend.requestsTo('/overrides/ctpo/en')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('logs "Failed to fetch overrides." when the network fails or the body is not a JSON object', async () => {
    backendWith({ collectionUrl: COLLECTION_URL })
      .on(
        'GET',
        '/overrides/ctpo/en',
        () => {
          throw new TypeError('Failed to fetch');
        },
        I18N_ORIGIN,
      )
      .install();
    const first = await renderSignInScreen('Sign in');
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Failed to fetch overrides.', 'ctpo/en', 'Failed to fetch'));
    first.unmount();

    consoleError.mockClear();
    backendWith({ collectionUrl: COLLECTION_URL })
      .on('GET', '/overrides/ctpo/en', () => json(['not', 'messages']), I18N_ORIGIN)
      .install();
    await renderSignInScreen('Sign in');
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Failed to fetch overrides.', 'ctpo/en', 'the body is not a JSON object'));
  });

  it('works without Cache Storage (plain http off localhost, some private windows)', async () => {
    vi.stubGlobal('caches', undefined);
    backendWith({ collectionUrl: COLLECTION_URL })
      .on('GET', '/overrides/ctpo/en', () => withEtag({ 'auth.signIn': 'Sign in, uncached' }, '"v1"'), I18N_ORIGIN)
      .install();
    await renderSignInScreen('Sign in, uncached');
  });
});

describe('overrides from the batch address', () => {
  function batchAnswer(entries: unknown[]): () => Response {
    return () => json(entries);
  }

  it('POSTs the list of resources and shows the answer’s body; the entity tag is kept as its version', async () => {
    const backend = backendWith({ batchUrl: BATCH_URL, collectionUrl: COLLECTION_URL })
      .on(
        'POST',
        '/overrides/batch',
        batchAnswer([
          { status: 200, headers: { ETag: '"b1"', 'Content-Type': 'application/json' }, body: JSON.stringify({ 'auth.signIn': 'Sign in (batch)' }) },
        ]),
        I18N_ORIGIN,
      )
      .install();
    await renderSignInScreen('Sign in (batch)');

    const [request] = backend.requestsTo('/overrides/batch');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.body).toEqual([{ key: 'ctpo/en' }]);
    expect(backend.requestsTo('/overrides/ctpo/*')).toEqual([]);
    await waitFor(async () =>
      expect(await storage.stored(OVERRIDE_CACHE_NAME, EN_RESOURCE)).toEqual({ body: { 'auth.signIn': 'Sign in (batch)' }, etag: '"b1"' }),
    );
  });

  it('sends the cached version and keeps the cached copy when the entry answers 304', async () => {
    await seedCache(EN_RESOURCE, { 'auth.signIn': 'Sign in (cached)' }, '"b1"');
    const backend = backendWith({ batchUrl: BATCH_URL, collectionUrl: COLLECTION_URL })
      .on('POST', '/overrides/batch', batchAnswer([{ status: 304, headers: { ETag: '"b1"' } }]), I18N_ORIGIN)
      .install();
    await renderSignInScreen('Sign in (cached)');
    await waitFor(() => expect(backend.requestsTo('/overrides/batch')).toHaveLength(1));
    expect(backend.requestsTo('/overrides/batch')[0]?.body).toEqual([{ key: 'ctpo/en', version: '"b1"' }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('button', { name: 'Sign in (cached)' })).toBeInTheDocument();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('accepts the answer wrapped as { resources: [...] } and a body given as an object', async () => {
    backendWith({ batchUrl: BATCH_URL })
      .on('POST', '/overrides/batch', () => json({ resources: [{ status: 200, headers: {}, body: { 'auth.signIn': 'Sign in (object)' } }] }), I18N_ORIGIN)
      .install();
    await renderSignInScreen('Sign in (object)');
    // With no collection address, the cache key is built on the batch address.
    await waitFor(async () => expect(await storage.stored(OVERRIDE_CACHE_NAME, `${BATCH_URL}/ctpo/en`)).toBeDefined());
  });

  it('logs "Failed to fetch batch overrides." and keeps the built-in messages when the batch fails', async () => {
    backendWith({ batchUrl: BATCH_URL })
      .on('POST', '/overrides/batch', () => new Response('Bad gateway', { status: 502 }), I18N_ORIGIN)
      .install();
    await renderSignInScreen('Sign in');
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Failed to fetch batch overrides.', 'status 502'));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('logs "Failed to fetch batch overrides." when the answer is not one entry per resource', async () => {
    backendWith({ batchUrl: BATCH_URL })
      .on('POST', '/overrides/batch', batchAnswer([]), I18N_ORIGIN)
      .install();
    await renderSignInScreen('Sign in');
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith('Failed to fetch batch overrides.', 'the answer is not one entry per resource'),
    );
  });

  it('logs "Failed to fetch overrides." for an entry that failed, and keeps the built-in messages', async () => {
    backendWith({ batchUrl: BATCH_URL })
      .on('POST', '/overrides/batch', batchAnswer([{ status: 500, headers: {}, body: 'oops' }]), I18N_ORIGIN)
      .install();
    await renderSignInScreen('Sign in');
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Failed to fetch overrides.', 'ctpo/en', 'status 500'));
    expect(consoleError).not.toHaveBeenCalledWith('Failed to fetch batch overrides.', expect.anything());
  });

  it('keeps the cached copy when the batch fails', async () => {
    await seedCache(EN_RESOURCE, { 'auth.signIn': 'Sign in (cached)' }, '"b1"');
    backendWith({ batchUrl: BATCH_URL, collectionUrl: COLLECTION_URL })
      .on(
        'POST',
        '/overrides/batch',
        () => {
          throw new TypeError('Failed to fetch');
        },
        I18N_ORIGIN,
      )
      .install();
    await renderSignInScreen('Sign in (cached)');
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Failed to fetch batch overrides.', 'Failed to fetch'));
    expect(screen.getByRole('button', { name: 'Sign in (cached)' })).toBeInTheDocument();
  });
});

describe('the batch wait', () => {
  it('sends the resources asked for within 150 ms as one batch, and later ones in the next', async () => {
    const backend = new FakeBackend()
      .on(
        'POST',
        '/overrides/batch',
        (request: RecordedRequest) =>
          json((request.body as { key: string }[]).map(({ key }) => ({ status: 200, headers: { ETag: `"${key}"` }, body: { 'auth.signIn': key } }))),
        I18N_ORIGIN,
      )
      .install();
    const loader = new MessageOverrideLoader({ batchUrl: BATCH_URL });
    const seen: string[] = [];
    const record = (messages: Readonly<Record<string, string>>) => seen.push(messages['auth.signIn'] ?? '');

    const startedAt = Date.now();
    const first = loader.load('fr-CA', record);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = loader.load('ja', record);
    await Promise.all([first, second]);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(140);
    await loader.load('de', record);

    expect(backend.requestsTo('/overrides/batch').map((request) => request.body)).toEqual([
      [{ key: 'ctpo/fr-CA' }, { key: 'ctpo/ja' }],
      [{ key: 'ctpo/de' }],
    ]);
    expect(seen).toEqual(['ctpo/fr-CA', 'ctpo/ja', 'ctpo/de']);
  });

  it('asks for each resource once per page', async () => {
    const backend = new FakeBackend()
      .on('POST', '/overrides/batch', () => json([{ status: 200, headers: {}, body: { 'auth.signIn': 'x' } }]), I18N_ORIGIN)
      .install();
    const loader = new MessageOverrideLoader({ batchUrl: BATCH_URL }, 0);
    await Promise.all([loader.load('ja', () => {}), loader.load('ja', () => {})]);
    await loader.load('ja', () => {});
    expect(backend.requestsTo('/overrides/batch')).toHaveLength(1);
  });
});

describe('override content', () => {
  it('renders a tag outside the rich-text set as plain text, and ignores ids the app does not have', async () => {
    backendWith({ collectionUrl: COLLECTION_URL })
      .on(
        'GET',
        '/overrides/ctpo/en',
        () => json({ 'auth.signIn': 'Sign <script>alert(1)</script>in <img>now</img>', 'no.such.id': 'Ignored' }),
        I18N_ORIGIN,
      )
      .install();
    const { container } = await renderSignInScreen('Sign alert(1)in now');
    expect(container.querySelector('script, img')).toBeNull();
    expect(screen.queryByText('Ignored')).not.toBeInTheDocument();
  });

  it('keeps the built-in message when an override does not parse or needs a value the app does not pass', async () => {
    localStorage.setItem('ctpo.language', 'fr-CA');
    backendWith({ collectionUrl: COLLECTION_URL })
      .on(
        'GET',
        '/overrides/ctpo/fr-CA',
        () =>
          json({
            'auth.signIn': 'Connexion {user}',
            'auth.signedOutIntro': 'Texte {cassé',
            'app.title': 'CTPO, version du client',
          }),
        I18N_ORIGIN,
      )
      .install();
    renderApp();
    expect(await screen.findByRole('heading', { level: 1, name: 'CTPO, version du client' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: frCA['auth.signIn'] })).toBeInTheDocument();
    expect(screen.getByText(frCA['auth.signedOutIntro'])).toBeInTheDocument();
  });
});
