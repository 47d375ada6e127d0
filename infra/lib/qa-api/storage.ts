// What the QA API keeps between requests: the jobs, the findings users dismissed, the reports, and
// the verdicts a run may reuse.
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { OWNER_CREATED_INDEX } from '../../../api/aws/dynamo-job-history.ts';
import { EXPIRES_AT, OWNER_INDEX } from '../../../api/aws/dynamo-job-store.ts';
import { VERDICT_EXPIRES_AT, VERDICT_PARTITION_KEY, VERDICT_SORT_KEY } from '../../../api/aws/dynamo-verdict-cache.ts';
import { Grouping } from '../logical-ids.ts';

/** Key prefix of the reports in the reports bucket; CloudFront forwards /reports/<file> as is. */
export const REPORTS_PREFIX = 'reports/';

export interface QaApiStorageProps {
  /** Days a report and its job record are kept. */
  reportExpiryDays: number;
}

export class QaApiStorage extends Grouping {
  readonly reportsBucket: s3.Bucket;
  readonly jobsTable: dynamodb.TableV2;
  /** Findings users dismissed, per user and course: a dismissal stays until restored or a year has passed. */
  readonly dismissalsTable: dynamodb.TableV2;
  /**
   * Each user's protocols by client, their answers per course and their runs' sign-offs
   * (api/aws/dynamo-protocol-store.ts): no expiry, a protocol outlives the reports.
   */
  readonly protocolsTable: dynamodb.TableV2;
  /**
   * The verdict cache (api/aws/dynamo-verdict-cache.ts): per course, each item's digest and findings
   * and each link's last answer, which a later run reuses instead of checking again. Values too large
   * for an item go to the reports bucket under `verdicts/`, where the bucket's one lifecycle rule
   * deletes them with the reports: an entry whose object is gone is checked again.
   */
  readonly verdictsTable: dynamodb.TableV2;
  /** A user's runs newest first: the history the jobs route lists and the runner compares with. */
  readonly jobHistoryIndexArn: string;

  constructor(scope: Construct, id: string, props: QaApiStorageProps) {
    super(scope, id);

    this.reportsBucket = new s3.Bucket(this, 'Reports', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [
        { id: 'expire-reports', expiration: Duration.days(props.reportExpiryDays), abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // Reports expire anyway; tearing the stack down takes them with it.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    Validations.of(this.reportsBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Reports are written only by the runner task role and read through CloudFront; S3 access logs would add a second bucket for no operational need.',
    });

    this.jobsTable = new dynamodb.TableV2(this, 'Jobs', {
      partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING },
      billing: dynamodb.Billing.onDemand(),
      timeToLiveAttribute: EXPIRES_AT,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      globalSecondaryIndexes: [
        {
          indexName: OWNER_INDEX,
          partitionKey: { name: 'owner', type: dynamodb.AttributeType.STRING },
          sortKey: { name: 'statusRank', type: dynamodb.AttributeType.NUMBER },
          projectionType: dynamodb.ProjectionType.KEYS_ONLY,
        },
        {
          // A user's runs newest first (GET /api/jobs) and the previous run of a course (the runner).
          indexName: OWNER_CREATED_INDEX,
          partitionKey: { name: 'owner', type: dynamodb.AttributeType.STRING },
          sortKey: { name: 'createdAt', type: dynamodb.AttributeType.STRING },
          projectionType: dynamodb.ProjectionType.ALL,
        },
      ],
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.jobHistoryIndexArn = `${this.jobsTable.tableArn}/index/${OWNER_CREATED_INDEX}`;

    this.dismissalsTable = new dynamodb.TableV2(this, 'Dismissals', {
      partitionKey: { name: 'course', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'fingerprint', type: dynamodb.AttributeType.STRING },
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // A dismissal expires DISMISSAL_KEEP_DAYS after it was made (api/aws/dynamo-dismissal-store.ts).
      timeToLiveAttribute: 'expiresAt',
      // Tearing the stack down takes everything with it, as it does the jobs.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.verdictsTable = new dynamodb.TableV2(this, 'Verdicts', {
      partitionKey: { name: VERDICT_PARTITION_KEY, type: dynamodb.AttributeType.STRING },
      sortKey: { name: VERDICT_SORT_KEY, type: dynamodb.AttributeType.STRING },
      billing: dynamodb.Billing.onDemand(),
      // An entry not written again for EXPIRY_DAYS (api/engine/verdict-cache.ts) is deleted.
      timeToLiveAttribute: VERDICT_EXPIRES_AT,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // A cache: tearing the stack down takes it, and the next run checks everything.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.protocolsTable = new dynamodb.TableV2(this, 'Protocols', {
      partitionKey: { name: 'scope', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'key', type: dynamodb.AttributeType.STRING },
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
  }
}
