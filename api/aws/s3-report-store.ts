// The report store on AWS: the HTML report and its JSON and CSV twins in the private reports bucket, which
// CloudFront serves under /reports/. The bucket's lifecycle rule deletes them after the expiry.
import type { S3Client } from '@aws-sdk/client-s3';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { REPORT_FILENAME } from '../jobs/report-filename.ts';
import type { ReportStore } from '../jobs/types.ts';

export interface S3ReportStoreOptions {
  client: S3Client;
  bucket: string;
  /** Key prefix, e.g. `reports/`; empty for the bucket's root. */
  prefix: string;
}

// A report's base name becomes part of an object key and a URL path: the same rule as on disk, and
// well under S3's key length limit.
const MAX_FILENAME_LENGTH = 200;

function assertSafe(filename: string): void {
  if (!REPORT_FILENAME.test(filename) || filename.length > MAX_FILENAME_LENGTH) {
    throw new Error(`"${filename}" is not a safe report name.`);
  }
}

export function createS3ReportStore(options: S3ReportStoreOptions): ReportStore {
  return {
    async put(filename, files) {
      assertSafe(filename);
      const key = `${options.prefix}${filename}`;
      // The twins first: the HTML's presence is what a reader takes as "the report is there".
      const parts = [
        { key: `${key}.json`, body: files.json, contentType: 'application/json; charset=utf-8' },
        { key: `${key}.csv`, body: files.csv, contentType: 'text/csv; charset=utf-8', contentDisposition: `attachment; filename="${filename}.csv"` },
        { key: `${key}.html`, body: files.html, contentType: 'text/html; charset=utf-8' },
      ];
      for (const part of parts) {
        await options.client.send(
          new PutObjectCommand({
            Bucket: options.bucket,
            Key: part.key,
            Body: part.body,
            ContentType: part.contentType,
            ...(part.contentDisposition === undefined ? {} : { ContentDisposition: part.contentDisposition }),
            // Revalidated on every view, so a report is gone from CloudFront when it expires here.
            CacheControl: 'no-cache',
          }),
        );
      }
    },

    async get(filename, extension) {
      assertSafe(filename);
      try {
        const answer = await options.client.send(new GetObjectCommand({ Bucket: options.bucket, Key: `${options.prefix}${filename}.${extension}` }));
        return await answer.Body?.transformToString('utf-8');
      } catch (error) {
        // Expired by the lifecycle rule: the run it belonged to is history no longer.
        if (error instanceof NoSuchKey || (error instanceof Error && error.name === 'NoSuchKey')) return undefined;
        throw error;
      }
    },

    async remove(filename) {
      assertSafe(filename);
      // The HTML first, as put writes it last: once it is gone no reader takes the report as there.
      // Deleting a key that does not exist succeeds, so a report never written is no error.
      for (const extension of ['html', 'json', 'csv']) {
        await options.client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: `${options.prefix}${filename}.${extension}` }));
      }
    },
  };
}
