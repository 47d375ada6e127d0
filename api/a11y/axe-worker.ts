// Runs axe-core on item HTML inside a worker thread (jsdom-runner.ts): jsdom and axe are loaded once
// and reused for every item, and the CPU-heavy work stays off the thread that checks links.
import { parentPort, workerData } from 'node:worker_threads';
import { JSDOM, VirtualConsole } from 'jsdom';
import type { Language } from '../i18n/languages.ts';
import { AXE_SOURCE, axeLocaleOf, axeRulesFor, axeRunOptions, summarizeAxeResults, type AxeOutcome } from './axe-rules.ts';

export interface AxeWorkerData {
  language?: Language;
}
export interface AxeRequest {
  id: number;
  html: string;
  whole: boolean;
  title: string;
}
export type AxeAnswer = { id: number; outcome: AxeOutcome } | { id: number; error: string };

const data = (workerData ?? {}) as AxeWorkerData;

// Scripts in topics never run (outside-only) and jsdom loads no subresources: no network from here.
// jsdom's "not implemented" notices are expected (no canvas) and are not errors of the run.
const dom = new JSDOM('<!doctype html><html lang="en"><head><title>Topic</title></head><body></body></html>', {
  runScripts: 'outside-only',
  pretendToBeVisual: true,
  virtualConsole: new VirtualConsole(),
});
const { window } = dom;

// APIs jsdom lacks, filled only where the answer is true of a page without layout: nothing is drawn,
// so no point of the viewport holds an element and no text has a box. The rules whose verdict would
// rest on these answers (contrast, sizes, positions) are not run in jsdom at all (axe-rules.ts).
const documentProto = window.Document.prototype as unknown as Record<string, unknown>;
documentProto.elementFromPoint ??= () => null;
documentProto.elementsFromPoint ??= () => [];
const rangeProto = window.Range.prototype as unknown as Record<string, unknown>;
const emptyRects = () => Object.assign([], { item: () => null });
rangeProto.getClientRects ??= emptyRects;
rangeProto.getBoundingClientRect ??= () => new window.DOMRect(0, 0, 0, 0);

window.eval(AXE_SOURCE);
type AxeInPage = { run: (context: Document, options: unknown) => Promise<Parameters<typeof summarizeAxeResults>[0]>; configure: (spec: unknown) => void };
const axeInPage = (window as unknown as { axe: AxeInPage }).axe;
const locale = axeLocaleOf(data.language);
if (locale !== undefined) axeInPage.configure({ locale });
const options = {
  whole: axeRunOptions(axeRulesFor({ mode: 'jsdom', whole: true, enhancedContrast: false })),
  fragment: axeRunOptions(axeRulesFor({ mode: 'jsdom', whole: false, enhancedContrast: false })),
};
const blankHtml = { lang: 'en', title: 'Topic' };

async function check(request: AxeRequest): Promise<AxeOutcome> {
  const document = window.document;
  const parsed = new window.DOMParser().parseFromString(request.html, 'text/html');
  const root = document.documentElement;
  // A whole page brings its own language, title and head (styles, meta); a fragment keeps the
  // blank page's. Copy the live lists first: adopting a node removes it from the list being walked.
  if (request.whole) {
    for (const name of root.getAttributeNames()) root.removeAttribute(name);
    for (const attribute of Array.from(parsed.documentElement.attributes)) root.setAttribute(attribute.name, attribute.value);
    document.head.replaceChildren(...Array.from(parsed.head.childNodes).map((node) => document.adoptNode(node)));
  } else {
    document.title = request.title || blankHtml.title;
  }
  document.body.replaceChildren(...Array.from(parsed.body.childNodes).map((node) => document.adoptNode(node)));
  try {
    const results = await axeInPage.run(document, request.whole ? options.whole : options.fragment);
    return summarizeAxeResults(results);
  } finally {
    document.body.replaceChildren();
    for (const name of root.getAttributeNames()) root.removeAttribute(name);
    root.setAttribute('lang', blankHtml.lang);
    document.head.replaceChildren();
    document.title = blankHtml.title;
  }
}

parentPort?.on('message', (request: AxeRequest) => {
  check(request).then(
    (outcome) => parentPort?.postMessage({ id: request.id, outcome } satisfies AxeAnswer),
    (error: unknown) => parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies AxeAnswer),
  );
});
