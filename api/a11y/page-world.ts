// The isolated JavaScript world in which the engines (axe-core, IBM's) and the page checks' probes
// run on a rendered item: it shares the page's DOM but has globals and DOM prototypes of its own, as
// a browser extension's content script does. A page's own scripts run in its main world, where they
// may replace `window.axe` or patch `Array.prototype`, `Element.prototype` or `Promise`; none of
// that reaches this world, so a page cannot change what the checks find on it.
//
// The world lives as long as the page's document: a navigation ends it (writing into the kept
// document with document.open() does not), and the next call makes a new one and loads `setup`
// (the engines' sources) into it first.
import type { CDPSession } from 'playwright-core';

/** The name of the world, as DevTools lists it. */
const WORLD_NAME = 'ctpo-checks';
const GONE = /Cannot find context with specified id|Execution context was destroyed|Inspected target navigated or closed/;

interface Evaluated {
  result: { value?: unknown; objectId?: string };
  exceptionDetails?: { text: string; exception?: { description?: string; value?: unknown } };
}

/** The error a script threw in the world, with its message as page.evaluate gives it. */
function thrown(details: NonNullable<Evaluated['exceptionDetails']>): Error {
  const description = details.exception?.description ?? (typeof details.exception?.value === 'string' ? details.exception.value : details.text);
  return new Error(description.split('\n')[0]);
}

export class PageWorld {
  readonly #devtools: CDPSession;
  readonly #setup: string;
  #contextId: Promise<number> | null = null;
  /** Worlds made, for tests and figures: one per document the page loaded. */
  created = 0;

  /** `setup` is evaluated in each new world before anything else runs in it. */
  constructor(devtools: CDPSession, setup: string) {
    this.#devtools = devtools;
    this.#setup = setup;
  }

  /** Forgets the world: the page is about to load another document. */
  reset(): void {
    this.#contextId = null;
  }

  /** The world's execution context id, made (with the setup loaded) when there is none. */
  contextId(): Promise<number> {
    this.#contextId ??= this.#create();
    const made = this.#contextId;
    made.catch(() => {
      if (this.#contextId === made) this.#contextId = null;
    });
    return made;
  }

  async #create(): Promise<number> {
    const { frameTree } = await this.#devtools.send('Page.getFrameTree');
    const { executionContextId } = await this.#devtools.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: WORLD_NAME, grantUniveralAccess: false });
    this.created++;
    const loaded = (await this.#devtools.send('Runtime.evaluate', { expression: this.#setup, contextId: executionContextId, silent: true })) as Evaluated;
    if (loaded.exceptionDetails !== undefined) throw thrown(loaded.exceptionDetails);
    return executionContextId;
  }

  /**
   * Calls `fn` with `arg` in the world and returns its (awaited) result as JSON-like data. `fn` is
   * sent as source, so it uses nothing from outside itself. A world that went away meanwhile (the
   * page's document changed) is made again once.
   */
  async evaluate<Arg, Result>(fn: (arg: Arg) => Result | Promise<Result>, arg: Arg): Promise<Result> {
    return this.#retrying(async (executionContextId) => {
      const called = (await this.#devtools.send('Runtime.callFunctionOn', {
        functionDeclaration: fn.toString(),
        executionContextId,
        arguments: [arg === undefined ? {} : { value: arg }],
        awaitPromise: true,
        returnByValue: true,
        silent: true,
      })) as Evaluated;
      if (called.exceptionDetails !== undefined) throw thrown(called.exceptionDetails);
      return called.result.value as Result;
    });
  }

  /** A DOM node (by DevTools' backend id) as an object of the world, for Runtime.callFunctionOn; undefined when it is gone. */
  async resolveNode(backendNodeId: number, objectGroup: string): Promise<string | undefined> {
    return this.#retrying(async (executionContextId) => {
      const { object } = await this.#devtools.send('DOM.resolveNode', { backendNodeId, executionContextId, objectGroup });
      return object.objectId;
    });
  }

  async #retrying<Result>(call: (contextId: number) => Promise<Result>): Promise<Result> {
    const contextId = await this.contextId();
    try {
      return await call(contextId);
    } catch (error) {
      if (!(error instanceof Error) || !GONE.test(error.message)) throw error;
      if (this.#contextId !== null && (await this.#contextId.catch(() => null)) === contextId) this.#contextId = null;
      return call(await this.contextId());
    }
  }
}
