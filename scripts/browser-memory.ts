// Prints how much memory headless Chromium takes while axe checks pages in it, as the runner's
// browser checks will: the figure the Fargate task's memory is sized by (docs/reliability.md).
//   npm run browser-memory [-- --sections 20 --loads 20]
// Memory is the proportional set size (PSS) of the browser's whole process tree, at its peak.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../api/a11y/browser-runner.ts';
import { sandboxedLaunchOptions } from '../api/a11y/sandboxed-chromium.ts';

const { values } = parseArgs({ options: { sections: { type: 'string', default: '20' }, loads: { type: 'string', default: '20' } } });
const sections = Number(values.sections);
const loads = Number(values.loads);
const executablePath = process.env.CTPO_CHROMIUM ?? '/usr/bin/chromium';
const MARKER = '--ctpo-memory-probe';

/** PSS in MiB of the browser process started with MARKER and all its descendants. */
function browserMemoryMiB(): number {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  const parentOf = new Map(pids.map((pid) => [pid, read(`/proc/${pid}/stat`).split(') ')[1]?.split(' ')[1] ?? '']));
  const root = pids.find((pid) => {
    const command = read(`/proc/${pid}/cmdline`);
    return command.includes(MARKER) && !command.includes('--type=');
  });
  const inTree = (pid: string): boolean => {
    for (let at: string | undefined = pid; at !== undefined && at !== '' && at !== '0'; at = parentOf.get(at)) if (at === root) return true;
    return false;
  };
  let kib = 0;
  for (const pid of pids.filter(inTree)) kib += Number(/Pss:\s+(\d+)/.exec(read(`/proc/${pid}/smaps_rollup`))?.[1] ?? 0);
  return kib / 1024;
}

const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const html = `<!doctype html><html lang="en"><body>${Array.from(
  { length: sections },
  (_, i) => `<h2>Section ${i}</h2><p>${'Students read this paragraph of course content. '.repeat(20)}</p><a href="#s${i}">Next</a>`,
).join('')}</body></html>`;

const browser = await chromium.launch({
  ...sandboxedLaunchOptions(executablePath),
  // The engine's own flags and sandbox, so the figure is the one a run's browser takes.
  args: [...CHROMIUM_ARGS, MARKER],
});
let peak = 0;
try {
  const page = await browser.newPage();
  for (let i = 0; i < loads; i += 1) {
    await page.setContent(html);
    await page.addScriptTag({ content: axe });
    await page.evaluate(async () => (await (window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }).axe.run(document, { runOnly: ['color-contrast'] })));
    peak = Math.max(peak, browserMemoryMiB());
  }
} finally {
  await browser.close();
}
console.log(`Chromium (${executablePath}), ${loads} loads of a ${sections}-section page with axe color-contrast: peak ${peak.toFixed(0)} MiB PSS`);
