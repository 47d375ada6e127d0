// Reports on the local disk: <dir>/<filename>.json, .csv and .html, each written whole (temp file
// then rename) so the reports route never serves half a report; the HTML last, as on S3.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPORT_FILENAME } from './report-filename.ts';
import type { ReportStore } from './types.ts';

export type FileReportStore = ReportStore;

const EXTENSIONS = ['html', 'json', 'csv'] as const;

function assertSafe(filename: string): void {
  if (!REPORT_FILENAME.test(filename)) throw new Error(`Refusing to use an unsafe report name: ${JSON.stringify(filename)}`);
}

export function createFileReportStore(dir: string): FileReportStore {
  return {
    async put(filename, files) {
      assertSafe(filename);
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

    async get(filename, extension) {
      assertSafe(filename);
      try {
        return await readFile(join(dir, `${filename}.${extension}`), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async remove(filename) {
      assertSafe(filename);
      await Promise.all(EXTENSIONS.map((extension) => rm(join(dir, `${filename}.${extension}`), { force: true })));
    },
  };
}
