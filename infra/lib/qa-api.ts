// The QA API on AWS, composed of its parts: the storage (jobs, dismissals, reports), the runner (one
// ECS Fargate task per run), the keys that sign report links, and the functions (one per route,
// reachable only through the site's CloudFront distribution, and the task-state handler).
import { Construct } from 'constructs';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import { QaApiFunctions } from './qa-api/functions.ts';
import { QaApiRunner } from './qa-api/runner.ts';
import { QaApiStorage } from './qa-api/storage.ts';
import { ReportKeys } from './report-keys.ts';

export interface QaApiProps {
  userPool: cognito.IUserPool;
  /** The app's client: the only audience the API accepts tokens for. */
  client: cognito.IUserPoolClient;
  /** Days a report and its job record are kept. */
  reportExpiryDays: number;
  /**
   * Origins of apps served elsewhere that may call the API (local development against the deployed
   * stack, only when the deployment asks for it). The deployed app needs none: it reaches the API
   * on its own origin.
   */
  corsOrigins: readonly string[];
}

export class QaApi extends Construct {
  readonly storage: QaApiStorage;
  readonly runner: QaApiRunner;
  readonly reportKeys: ReportKeys;
  readonly functions: QaApiFunctions;

  constructor(scope: Construct, id: string, props: QaApiProps) {
    super(scope, id);
    // The parts are groupings (infra/lib/logical-ids.ts): every resource keeps the logical ID it had
    // when QaApi held it directly, so splitting QaApi replaced nothing deployed.
    this.storage = new QaApiStorage(this, 'Storage', { reportExpiryDays: props.reportExpiryDays });
    this.runner = new QaApiRunner(this, 'Runner', { storage: this.storage, reportExpiryDays: props.reportExpiryDays });
    this.reportKeys = new ReportKeys(this, 'ReportKeys');
    this.functions = new QaApiFunctions(this, 'Functions', {
      userPool: props.userPool,
      client: props.client,
      reportExpiryDays: props.reportExpiryDays,
      corsOrigins: props.corsOrigins,
      storage: this.storage,
      runner: this.runner,
      reportKeys: this.reportKeys,
    });
  }

  /** The address reports are served from (`outputUrl`), known only once the site exists. */
  publishReportsAt(reportsUrl: string): void {
    this.functions.publishReportsAt(reportsUrl);
  }
}
