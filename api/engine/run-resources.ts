// What a run holds open: the site's HTTP client and the links' one, the document reader's worker,
// the accessibility runner (the browser starts while the run signs in) and the Brightspace session.
// Opened in one place and closed once each, in reverse order, however the run ends (`await using`).
import { openAccessibilityRunner, type OpenedA11yRunner } from '../a11y/open-a11y-runner.ts';
import { BrightspaceSession, localSwitchFor, sitePolicy, siteOriginOf } from '../brightspace/session.ts';
import { DocumentRunner } from '../extract/document-runner.ts';
import { GuardedHttpClient } from '../net/guarded-http.ts';
import { DEFAULT_LINK_LIMITS } from '../net/link-checker.ts';
import type { ProgressReporter } from './progress.ts';
import type { CourseTestInput } from './types.ts';

/** Topics read from the site at once, unless the run says otherwise. */
export const DEFAULT_TOPIC_CONCURRENCY = 8;

export interface RunResources extends AsyncDisposable {
  /** The Brightspace site. */
  origin: URL;
  siteHttp: GuardedHttpClient;
  /** Every link and every request of a rendered page goes through this client. */
  linkHttp: GuardedHttpClient;
  documents: DocumentRunner;
  a11y: OpenedA11yRunner;
  session: BrightspaceSession;
}

/**
 * Opens what a run needs and signs in (the run's "sign-in" phase). `warmUp`: the browser starts while
 * the run signs in; without it, it starts when a page must be rendered (a run that reuses earlier
 * verdicts may need none).
 */
export async function openRunResources(input: CourseTestInput, progress: ProgressReporter, warmUp = true): Promise<RunResources> {
  const options = input.options ?? {};
  // The local switch holds for a site on this machine or its network only: a public site's pages
  // must not reach loopback or LAN services through the browser or the link checker.
  const allowPrivateTargets = await localSwitchFor(input.siteUrl, input.allowPrivateTargets === true, options.resolve);
  const origin = siteOriginOf(input.siteUrl, allowPrivateTargets);
  const stack = new AsyncDisposableStack();
  try {
    const siteHttp = stack.adopt(
      new GuardedHttpClient({
        policy: sitePolicy(allowPrivateTargets),
        resolve: options.resolve,
        timeoutMs: options.siteTimeoutMs ?? 30_000,
        connectionsPerHost: Math.max(8, options.topicConcurrency ?? DEFAULT_TOPIC_CONCURRENCY),
      }),
      (client) => client.close(),
    );
    const linkHttp = stack.adopt(
      new GuardedHttpClient({
        policy: { allowPrivateTargets, allowHttp: true },
        resolve: options.resolve,
        timeoutMs: options.linkTimeoutMs ?? 15_000,
        connectionsPerHost: options.linkLimits?.perHost ?? DEFAULT_LINK_LIMITS.perHost,
      }),
      (client) => client.close(),
    );
    const documents = stack.adopt(new DocumentRunner({ limits: options.documentLimits }), (runner) => runner.close());
    const signedIn: { session?: BrightspaceSession } = {};
    // The browser never sees the session: the site's files its pages load are read here, with it.
    const a11y = stack.adopt(
      await openAccessibilityRunner({ options, language: input.language, http: linkHttp, siteOrigin: origin, orgUnitId: input.orgUnitId, sessionHeaders: (url) => signedIn.session?.headersFor(url) ?? {}, signal: input.signal }),
      (opened) => opened.runner.close(),
    );
    if (warmUp) a11y.runner.warmUp();
    progress('sign-in', 0, 1);
    const session = stack.adopt(
      await BrightspaceSession.open({ origin, username: input.username, password: input.password, http: siteHttp, signal: input.signal }),
      (opened) => opened.close(),
    );
    signedIn.session = session;
    progress('sign-in', 1, 1);
    const owned = stack.move();
    return { origin, siteHttp, linkHttp, documents, a11y, session, [Symbol.asyncDispose]: () => owned.disposeAsync() };
  } catch (error) {
    await stack.disposeAsync();
    throw error;
  }
}
