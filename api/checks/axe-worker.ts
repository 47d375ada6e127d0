// Runs axe-core on topic HTML inside a worker thread: jsdom and axe are loaded once and reused for
// every topic, and the CPU-heavy work stays off the thread that checks links.
import { parentPort } from 'node:worker_threads';
import axe from 'axe-core';
import { JSDOM } from 'jsdom';
import { AXE_EXCLUDED_RULES, AXE_TAGS, type AxeViolation } from './axe-rules.ts';

export interface AxeRequest {
  id: number;
  html: string;
}
export type AxeAnswer = { id: number; violations: AxeViolation[] } | { id: number; error: string };

// Scripts in topics never run (outside-only) and jsdom loads no subresources: no network from here.
const dom = new JSDOM('<!doctype html><html lang="en"><head><title>Topic</title></head><body></body></html>', {
  runScripts: 'outside-only',
  pretendToBeVisual: true,
});
const { window } = dom;
window.eval(axe.source);
const axeInPage = (window as unknown as { axe: typeof axe }).axe;
const excluded = new Set(AXE_EXCLUDED_RULES);
const rules = axeInPage.getRules(AXE_TAGS).map((rule) => rule.ruleId).filter((id) => !excluded.has(id));
// Selectors, XPaths and ancestry are costly to compute and the report does not use them.
const options: axe.RunOptions = {
  runOnly: { type: 'rule', values: rules },
  resultTypes: ['violations'],
  selectors: false,
  ancestry: false,
  xpath: false,
  elementRef: false,
  iframes: false,
  performanceTimer: false,
};

function shorten(html: string): string {
  const oneLine = html.replace(/\s+/g, ' ').trim();
  return oneLine.length > 120 ? `${oneLine.slice(0, 117)}...` : oneLine;
}

async function check(html: string): Promise<AxeViolation[]> {
  const document = window.document;
  const parsed = new window.DOMParser().parseFromString(html, 'text/html');
  // Copy the live list first: adopting a node removes it from the list being walked.
  const nodes = Array.from(parsed.body.childNodes);
  document.body.replaceChildren(...nodes.map((node) => document.adoptNode(node)));
  try {
    const result = await axeInPage.run(document, options);
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      count: violation.nodes.length,
      examples: violation.nodes.slice(0, 2).map((node) => shorten(node.html)),
    }));
  } finally {
    document.body.replaceChildren();
  }
}

parentPort?.on('message', (request: AxeRequest) => {
  check(request.html).then(
    (violations) => parentPort?.postMessage({ id: request.id, violations } satisfies AxeAnswer),
    (error: unknown) => parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies AxeAnswer),
  );
});
