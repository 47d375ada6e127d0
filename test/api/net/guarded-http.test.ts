import { createServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../../../api/net/address-guard.ts';
import { GuardedHttpClient, NetworkFailure } from '../../../api/net/guarded-http.ts';
import { startLinkHost, type LinkHost } from '../../fixtures/link-host.ts';

let web: LinkHost;
let port: string;

beforeAll(async () => {
  web = await startLinkHost();
  port = new URL(web.origin).port;
});
afterAll(async () => {
  await web.close();
});

const local = { allowPrivateTargets: true, allowHttp: true };
const strict = { allowPrivateTargets: false, allowHttp: true };

function failureOf(error: unknown): string {
  if (error instanceof NetworkFailure) return error.kind;
  return (error as { code?: string }).code ?? String(error);
}

describe('GuardedHttpClient', () => {
  it('reads a body as text and discards it when not asked for', async () => {
    const client = new GuardedHttpClient({ policy: local });
    try {
      const page = await client.send({ url: `${web.origin}/ok/page`, readBodyLimit: 1024 });
      expect(page.status).toBe(200);
      expect(page.body).toContain('<p>200</p>');
      const head = await client.send({ url: `${web.origin}/ok/page`, method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body).toBeNull();
    } finally {
      await client.close();
    }
  });

  it('puts a time limit on every request', async () => {
    const client = new GuardedHttpClient({ policy: local, timeoutMs: 300 });
    try {
      // The server never answers: only the client's own limit can end the request.
      await expect(client.send({ url: `${web.origin}/hang/1` }).catch(failureOf)).resolves.toBe('timeout');
    } finally {
      await client.close();
    }
  });

  it('refuses a body larger than asked for', async () => {
    const big = createServer((_req, res) => res.end('x'.repeat(200_000)));
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    const client = new GuardedHttpClient({ policy: local });
    try {
      const url = `http://127.0.0.1:${(big.address() as AddressInfo).port}/`;
      await expect(client.send({ url, readBodyLimit: 100_000 }).catch(failureOf)).resolves.toBe('too-large');
      // Or keeps its start, when the start is all that is wanted (what a page says of itself).
      const start = await client.send({ url, readBodyLimit: 100_000, truncateBody: true });
      expect(start.body).toBe('x'.repeat(100_000));
    } finally {
      await client.close();
      big.closeAllConnections();
      big.close();
    }
  });

  it('reads a binary body as its bytes, undecoded, and refuses one announced as too big before reading it', async () => {
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff, 0xfe, 0x00, 0x80]);
    let streamed = 0;
    const files = createServer((req, res) => {
      if (req.url === '/small.pdf') return res.end(bytes);
      // Announces 200 MB and streams until the client goes away.
      res.writeHead(200, { 'content-length': String(200 * 1024 * 1024) });
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (!res.destroyed && streamed < 200 * 1024 * 1024) {
          streamed += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    const client = new GuardedHttpClient({ policy: local });
    try {
      const origin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
      const small = await client.send({ url: `${origin}/small.pdf`, readBodyLimit: 1024, readBodyAs: 'bytes' });
      expect(small.bytes).toEqual(bytes);
      expect(small.body).toBeNull();
      await expect(client.send({ url: `${origin}/huge.pdf`, readBodyLimit: 1024 * 1024, readBodyAs: 'bytes' }).catch(failureOf)).resolves.toBe('too-large');
      expect(streamed).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await client.close();
      files.closeAllConnections();
      files.close();
    }
  });

  it('reports a refused connection and a name that does not resolve', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const noSuchName: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const client = new GuardedHttpClient({ policy: local, resolve: noSuchName });
    try {
      await expect(client.send({ url: `http://127.0.0.1:${freePort}/` }).catch(failureOf)).resolves.toBe('refused');
      await expect(client.send({ url: 'http://no-such-host.example/' }).catch(failureOf)).resolves.toBe('dns');
    } finally {
      await client.close();
    }
  });

  it('stops when the caller aborts', async () => {
    const client = new GuardedHttpClient({ policy: local });
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    setTimeout(() => controller.abort(reason), 50);
    try {
      await expect(client.send({ url: `${web.origin}/hang/2`, signal: controller.signal })).rejects.toBe(reason);
    } finally {
      await client.close();
    }
  });

  it('caps open connections per host', async () => {
    const client = new GuardedHttpClient({ policy: local, connectionsPerHost: 2 });
    const started = Date.now();
    try {
      await Promise.all(Array.from({ length: 6 }, (_, i) => client.send({ url: `${web.origin}/slow/150/${i}` })));
      // Six 150 ms answers through two connections take three rounds.
      expect(Date.now() - started).toBeGreaterThanOrEqual(440);
    } finally {
      await client.close();
    }
  });
});

describe('kept connections', () => {
  /** A raw HTTP/1.1 server: `answer` gets each request's method and its number on its connection. */
  async function rawServer(answer: (socket: Socket, method: string, nth: number) => void) {
    let connections = 0;
    const server = createTcpServer((socket) => {
      connections++;
      let nth = 0;
      let buffered = '';
      socket.on('data', (chunk) => {
        buffered += chunk.toString('latin1');
        let end: number;
        while ((end = buffered.indexOf('\r\n\r\n')) !== -1) {
          const method = buffered.slice(0, buffered.indexOf(' '));
          buffered = buffered.slice(end + 4);
          answer(socket, method, ++nth);
        }
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      connections: () => connections,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }
  const ok = (socket: Socket, method: string) => socket.write(method === 'HEAD'
    ? 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n'
    : 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\n<p>ok</p>');
  // Drops every connection when its second request arrives, as a server that closed an idle
  // connection at that very moment does.
  const diesOnSecond = (socket: Socket, method: string, nth: number) => (nth === 1 ? ok(socket, method) : socket.destroy());

  it('keeps the connection after a HEAD answer that gives no length, as Node servers send it', async () => {
    let connections = 0;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end();
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new GuardedHttpClient({ policy: local });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
      for (let i = 0; i < 5; i++) expect((await client.send({ url, method: 'HEAD' })).status).toBe(200);
      expect((await client.send({ url, readBodyLimit: 100 })).status).toBe(200);
      expect(connections).toBe(1);
    } finally {
      await client.close();
      server.closeAllConnections();
      server.close();
    }
  });

  it('closes it when the HEAD answer says so', async () => {
    const server = await rawServer((socket) => socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n'));
    const client = new GuardedHttpClient({ policy: local });
    try {
      for (let i = 0; i < 3; i++) expect((await client.send({ url: `${server.origin}/page`, method: 'HEAD' })).status).toBe(200);
      expect(server.connections()).toBe(3);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('sends a GET or HEAD again on a new connection when the kept one was dead', async () => {
    const server = await rawServer(diesOnSecond);
    const client = new GuardedHttpClient({ policy: local });
    try {
      expect((await client.send({ url: `${server.origin}/a`, readBodyLimit: 100 })).body).toBe('<p>ok</p>');
      expect((await client.send({ url: `${server.origin}/b`, method: 'HEAD' })).status).toBe(200);
      expect((await client.send({ url: `${server.origin}/c`, readBodyLimit: 100 })).body).toBe('<p>ok</p>');
      // /b and /c each found a dead connection and went on a new one.
      expect(server.connections()).toBe(3);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('never sends a POST again', async () => {
    const server = await rawServer(diesOnSecond);
    const client = new GuardedHttpClient({ policy: local });
    try {
      expect((await client.send({ url: `${server.origin}/a`, readBodyLimit: 100 })).body).toBe('<p>ok</p>');
      await expect(client.send({ url: `${server.origin}/form`, method: 'POST', body: 'a=1' }).catch(failureOf)).resolves.toBe('reset');
      expect(server.connections()).toBe(1);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('still gets every answer right when a server sends a body after a HEAD answer', async () => {
    const stray = '<p>a body where none belongs</p>';
    const server = await rawServer((socket, method) => {
      if (method !== 'HEAD') return void socket.write('HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\n<p>no</p>');
      // Straight after the headers (/now) or once the connection sits idle (/later).
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n${nextIsLater ? '' : stray}`);
      if (nextIsLater) setTimeout(() => socket.write(stray), 30);
    });
    let nextIsLater = false;
    const client = new GuardedHttpClient({ policy: local });
    try {
      for (const later of [false, true]) {
        nextIsLater = later;
        expect((await client.send({ url: `${server.origin}/a`, method: 'HEAD' })).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 60));
        const next = await client.send({ url: `${server.origin}/b`, readBodyLimit: 100 });
        expect(next.status).toBe(404);
        expect(next.body).toBe('<p>no</p>');
      }
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('GuardedHttpClient.follow', () => {
  it('follows redirects by hand and lists every hop', async () => {
    const client = new GuardedHttpClient({ policy: local });
    try {
      const { response, redirects } = await client.follow({ url: `${web.origin}/moved/a` });
      expect(response.status).toBe(200);
      expect(response.url.pathname).toBe('/ok/a');
      expect(redirects).toEqual([{ url: new URL(`${web.origin}/moved/a`), status: 301 }]);
    } finally {
      await client.close();
    }
  });

  it('checks every hop against the guard', async () => {
    const client = new GuardedHttpClient({ policy: local });
    try {
      const withCredentials = `${web.origin}/redirect?to=${encodeURIComponent(`http://user:pw@127.0.0.1:${port}/ok/x`)}`;
      await expect(client.follow({ url: withCredentials })).rejects.toMatchObject({ code: 'invalid_input' });
      const toFile = `${web.origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`;
      await expect(client.follow({ url: toFile })).rejects.toMatchObject({ code: 'invalid_input' });
    } finally {
      await client.close();
    }
  });

  it('gives up on a redirect loop', async () => {
    const client = new GuardedHttpClient({ policy: local });
    try {
      await expect(client.follow({ url: `${web.origin}/loop/x` }, { maxRedirects: 3 }).catch(failureOf)).resolves.toBe('redirects');
      expect(web.hits('/loop/x')).toBe(4);
    } finally {
      await client.close();
    }
  });

  it('sends per-hop headers only where the caller says', async () => {
    const client = new GuardedHttpClient({ policy: local });
    try {
      const target = `http://localhost:${port}/ok/elsewhere`;
      await client.follow(
        { url: `${web.origin}/redirect?to=${encodeURIComponent(target)}` },
        { headersFor: (url): Record<string, string> => (url.hostname === '127.0.0.1' ? { cookie: 'session=only-here' } : {}) },
      );
      const [first, second] = web.requests.slice(-2);
      expect(first?.cookie).toBe('session=only-here');
      expect(second?.path).toBe('/ok/elsewhere');
      expect(second?.cookie).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});

describe('the connect-time address check', () => {
  // A server of its own that counts TCP connections: refusing at DNS time means none is opened.
  let connections = 0;
  let counting: ReturnType<typeof createServer>;
  let countingPort = 0;
  beforeAll(async () => {
    counting = createServer((_req, res) => res.end('ok'));
    counting.on('connection', () => connections++);
    await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
    countingPort = (counting.address() as AddressInfo).port;
  });
  afterAll(() => {
    counting.closeAllConnections();
    counting.close();
  });

  it('refuses a host whose DNS answer is private, before any request is sent', async () => {
    const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const client = new GuardedHttpClient({ policy: strict, resolve });
    const before = connections;
    try {
      await expect(client.send({ url: `http://innocent.example:${countingPort}/private-dns` })).rejects.toMatchObject({
        code: 'address_not_allowed',
      });
      expect(connections).toBe(before); // refused before connecting, not after
    } finally {
      await client.close();
    }
  });

  it('catches DNS rebinding: the answer used for connecting is the one checked', async () => {
    let calls = 0;
    // First answer public (what a pre-check would see), every later answer loopback.
    const rebinding: Resolver = async () => [{ address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    const client = new GuardedHttpClient({ policy: strict, resolve: rebinding });
    const { assertAllowedDestination } = await import('../../../api/net/address-guard.ts');
    const url = new URL(`http://rebind.example:${countingPort}/rebound`);
    const before = connections;
    try {
      await assertAllowedDestination(url, strict, rebinding);
      await expect(client.send({ url })).rejects.toMatchObject({ code: 'address_not_allowed' });
      expect(connections).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('refuses private IP literals at the socket too', async () => {
    const client = new GuardedHttpClient({ policy: strict });
    try {
      await expect(client.send({ url: `http://2130706433:${port}/ok/literal` })).rejects.toMatchObject({ code: 'address_not_allowed' });
      expect(web.hits('/ok/literal')).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('never connects to a link-local or metadata address, even when private targets are allowed', async () => {
    const metadata: Resolver = async () => [{ address: '169.254.169.254', family: 4 }];
    const client = new GuardedHttpClient({ policy: local, resolve: metadata });
    try {
      // A name that resolves there, a literal, and a redirect from an allowed loopback page to it.
      await expect(client.send({ url: 'http://metadata.example/latest/meta-data/' })).rejects.toMatchObject({ code: 'address_not_allowed' });
      await expect(client.send({ url: 'http://169.254.169.254/latest/meta-data/' })).rejects.toMatchObject({ code: 'address_not_allowed' });
      const redirect = `${web.origin}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`;
      await expect(client.follow({ url: redirect })).rejects.toMatchObject({ code: 'address_not_allowed' });
      const viaName = `${web.origin}/redirect?to=${encodeURIComponent('http://metadata.example/latest/meta-data/')}`;
      await expect(client.follow({ url: viaName })).rejects.toMatchObject({ code: 'address_not_allowed' });
    } finally {
      await client.close();
    }
  });

  it('connects through the injected resolver when private targets are allowed', async () => {
    const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const client = new GuardedHttpClient({ policy: local, resolve });
    try {
      const response = await client.send({ url: `http://course.example:${port}/ok/named` });
      expect(response.status).toBe(200);
      expect(web.hits('/ok/named')).toBe(1);
    } finally {
      await client.close();
    }
  });
});
