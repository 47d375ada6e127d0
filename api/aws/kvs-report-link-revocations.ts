// Report-link revocations on AWS: an owner's revocation time goes into the CloudFront KeyValueStore
// the reports behaviour's function reads (infra/edge/report-gate.js refuses a link issued at or
// before `report-revoked-<owner tag>`). The store takes a write only with its current ETag, and the
// key rotation writes it too, so a write that meets another one reads the ETag again and retries.
import type { CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { DescribeKeyValueStoreCommand, UpdateKeysCommand } from '@aws-sdk/client-cloudfront-keyvaluestore';
// The KeyValueStore API is signed with SigV4a; this registers the JavaScript signer for it.
import '@aws-sdk/signature-v4a';
import { AppError } from '../errors.ts';
import { REPORT_REVOCATION_STORE_PREFIX } from '../http/report-capability.ts';
import { msg } from '../i18n/messages.ts';
import type { ReportLinkRevocations } from '../http/report-links.ts';

/** Writes that meet another write before one goes through: then the caller hears the store is busy. */
export const REVOCATION_ATTEMPTS = 5;

const OWNER_TAG = /^[0-9a-f]{16}$/;

/** A write refused because the store changed since its ETag was read. */
function isConflict(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return error.name === 'ConflictException' || error.name === 'PreconditionFailed' || status === 409 || status === 412;
}

export function createKvsReportLinkRevocations(options: { client: CloudFrontKeyValueStoreClient; storeArn: string; pause?: (attempt: number) => Promise<void> }): ReportLinkRevocations {
  const pause = options.pause ?? ((attempt: number) => new Promise<void>((resolve) => setTimeout(resolve, 50 * 2 ** attempt + Math.random() * 50)));
  return {
    async revokeAll(ownerTag, at) {
      if (!OWNER_TAG.test(ownerTag)) throw new Error('An owner tag is 16 hex digits.');
      const put = { Key: `${REPORT_REVOCATION_STORE_PREFIX}${ownerTag}`, Value: String(Math.floor(at.getTime() / 1000)) };
      for (let attempt = 1; ; attempt++) {
        const { ETag } = await options.client.send(new DescribeKeyValueStoreCommand({ KvsARN: options.storeArn }));
        try {
          await options.client.send(new UpdateKeysCommand({ KvsARN: options.storeArn, IfMatch: ETag, Puts: [put] }));
          return;
        } catch (error) {
          if (!isConflict(error)) throw error;
          // Kept busy by other writes: the caller may simply ask again (503).
          if (attempt >= REVOCATION_ATTEMPTS) throw new AppError('overloaded', msg('error.report-links.busy'));
          await pause(attempt);
        }
      }
    },
  };
}
