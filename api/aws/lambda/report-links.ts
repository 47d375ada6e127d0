// Lambda entry for DELETE /api/report-links: the caller ends every report link handed out to them so
// far, by writing their revocation time into the edge's KeyValueStore. It reads no job and signs nothing.
import { CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { handleRevokeReportLinks } from '../../http/report-link-routes.ts';
import { createKvsReportLinkRevocations } from '../kvs-report-link-revocations.ts';
import { ENV, requireEnv } from '../settings.ts';
import { NO_JOB_RUNNER, NO_JOB_STORE, NO_TABLE_OF_CONTENTS, apiDepsFromEnv, lambdaHandlerOf } from './http-lambda.ts';

export const handler = lambdaHandlerOf(handleRevokeReportLinks, {
  ...apiDepsFromEnv(process.env, { jobs: NO_JOB_STORE, runner: NO_JOB_RUNNER, loadTableOfContents: NO_TABLE_OF_CONTENTS }),
  reportLinkRevocations: createKvsReportLinkRevocations({ client: new CloudFrontKeyValueStoreClient({}), storeArn: requireEnv(process.env, ENV.reportKeyStore) }),
});
