import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createS3ReportStore } from '../../../api/aws/s3-report-store.ts';

describe('the S3 report store', () => {
  let s3: S3Client;
  let s3Mock: ReturnType<typeof mockClient>;

  beforeEach(() => {
    s3 = new S3Client({ region: 'ca-central-1' });
    s3Mock = mockClient(s3);
    s3Mock.on(PutObjectCommand).resolves({});
  });
  afterEach(() => s3Mock.restore());

  it('writes the report and its JSON and CSV twins under the prefix CloudFront serves, the HTML last', async () => {
    const store = createS3ReportStore({ client: s3, bucket: 'reports-bucket', prefix: 'reports/' });
    await store.put('acme-ou6606-20260501-x7k2', { html: '<!doctype html><title>r</title>', json: '{"schemaVersion":1}', csv: 'Module,Topic\r\n' });
    const puts = s3Mock.commandCalls(PutObjectCommand).map((call) => call.args[0].input);
    expect(puts).toEqual([
      expect.objectContaining({ Bucket: 'reports-bucket', Key: 'reports/acme-ou6606-20260501-x7k2.json', ContentType: 'application/json; charset=utf-8', Body: '{"schemaVersion":1}' }),
      expect.objectContaining({
        Bucket: 'reports-bucket',
        Key: 'reports/acme-ou6606-20260501-x7k2.csv',
        ContentType: 'text/csv; charset=utf-8',
        ContentDisposition: 'attachment; filename="acme-ou6606-20260501-x7k2.csv"',
        Body: 'Module,Topic\r\n',
      }),
      expect.objectContaining({ Bucket: 'reports-bucket', Key: 'reports/acme-ou6606-20260501-x7k2.html', ContentType: 'text/html; charset=utf-8', CacheControl: 'no-cache' }),
    ]);
  });

  it.each(['../secrets', 'a/b', '', '.hidden', 'x'.repeat(201), 'name with space'])('refuses the unsafe name %j and writes nothing', async (name) => {
    const store = createS3ReportStore({ client: s3, bucket: 'reports-bucket', prefix: 'reports/' });
    await expect(store.put(name, { html: '', json: '', csv: '' })).rejects.toThrow(/not a safe report name/);
    expect(s3Mock.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('deletes every file of a report (a cancelled run keeps none), the HTML first, and refuses an unsafe name', async () => {
    s3Mock.on(DeleteObjectCommand).resolves({});
    const store = createS3ReportStore({ client: s3, bucket: 'reports-bucket', prefix: 'reports/' });
    await store.remove('acme-ou6606-20260501-x7k2');
    expect(s3Mock.commandCalls(DeleteObjectCommand).map((call) => call.args[0].input)).toEqual(
      ['html', 'json', 'csv'].map((extension) => ({ Bucket: 'reports-bucket', Key: `reports/acme-ou6606-20260501-x7k2.${extension}` })),
    );
    await expect(store.remove('../secrets')).rejects.toThrow(/not a safe report name/);
    expect(s3Mock.commandCalls(DeleteObjectCommand)).toHaveLength(3);
  });
});
