// Reports on the local disk: <dir>/<filename>.json, .csv and .html, each written whole (temp file
// then rename) so the reports route never serves half a report; the HTML last, as on S3.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPORT_FILENAME } from '../http/report-filename.ts';
import type { ReportStore } from './types.ts';

export function createFileReportStore(dir: string): ReportStore {
  return {
    async put(filename, files) {
      if (!REPORT_FILENAME.test(filename)) throw new Error(`Refusing to write a report under an unsafe name: ${JSON.stringify(filename)}`);
      await mkdir(dir, { recursive: true });
      for (const [extension, content] of [['json', files.json], ['csv', files.csv], ['html', files.html]] as const) {
        const target = join(dir, `${filename}.${extension}`);
        const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
        try {
          await writeFile(temporary, content, { mode: 0o644 });
          await rename(temporary, target);
        } finally {
          await rm(temporary, { force: true });
        }
      }
    },
  };
}
