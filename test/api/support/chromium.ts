// The Chromium processes this test process started (its direct children): a runner that is closed,
// has failed or was aborted must leave none of its own behind.
import { readdir, readFile } from 'node:fs/promises';

export async function chromiumChildren(): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = await readFile(`/proc/${entry}/status`, 'utf8');
      const parent = /^PPid:\s+(\d+)/m.exec(status)?.[1];
      const name = /^Name:\s+(.+)$/m.exec(status)?.[1] ?? '';
      if (Number(parent) === process.pid && /chrom/i.test(name)) found.push(Number(entry));
    } catch {
      // the process ended while the list was read
    }
  }
  return found;
}
