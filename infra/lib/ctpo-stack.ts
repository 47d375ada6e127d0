// The whole deployment in one stack: the identity, the site and, unless the app is pointed at an
// existing one, the QA API. One stack because the three refer to each other (the sign-in client
// needs the site's address, the site serves the API, the API checks the client's tokens); across
// stacks those references would form a cycle. Only what CloudFront must have in us-east-1 lives
// in the edge stack beside it (infra/lib/edge.ts).
import { CfnOutput, Token } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Identity } from './identity.ts';
import { GroupingAwareStack } from './logical-ids.ts';
import type { CtpoParameters } from './parameters.ts';
import { QaApi } from './qa-api.ts';
import { Site, assertBuiltApp } from './site.ts';
import type { SiteEdge } from './site.ts';

/** Where a developer runs the app: Vite's dev server and the local stack. */
export const LOCAL_APP_URLS = ['http://localhost:5173/', 'https://localhost:8443/'] as const;

export type CtpoStackProps = StackProps & { parameters: Omit<CtpoParameters, 'stackName'>; edge: SiteEdge };

/** Grouping-aware: the parts of QaApi are groupings, whose resources keep the logical IDs they had in QaApi. */
export class CtpoStack extends GroupingAwareStack {
  readonly identity: Identity;
  readonly site: Site;
  readonly qaApi?: QaApi;

  /**
   * Named zones (`a` and `b` exist in every region) spare synth an AWS lookup once the account is
   * known, so `cdk synth` never needs credentials and no cdk.context.json ties the repository to
   * one account. Only the runner's VPC uses them.
   */
  override get availabilityZones(): string[] {
    return Token.isUnresolved(this.region) ? super.availabilityZones : [`${this.region}a`, `${this.region}b`];
  }

  constructor(scope: Construct, id: string, props: CtpoStackProps) {
    // The web ACL's ARN comes from us-east-1.
    super(scope, id, { ...props, crossRegionReferences: true });
    const { parameters } = props;
    assertBuiltApp(parameters.webDist);
    // Developer origins only when the deployment asks: otherwise a page on localhost of any machine
    // could start a sign-in to this pool and call this API with the session it gets back.
    const devAppUrls = parameters.devOrigins ? LOCAL_APP_URLS : [];
    const devOrigins = devAppUrls.map((url) => new URL(url).origin);

    this.identity = new Identity(this, 'Identity', {
      ...(parameters.domainPrefix === undefined ? {} : { domainPrefix: parameters.domainPrefix }),
      localAppUrls: devAppUrls,
    });

    if (parameters.externalApiUrl === undefined) {
      this.qaApi = new QaApi(this, 'QaApi', {
        userPool: this.identity.userPool,
        client: this.identity.client,
        reportExpiryDays: parameters.reportExpiryDays,
        corsOrigins: devOrigins,
      });
    }

    this.site = new Site(this, 'Site', {
      webDist: parameters.webDist,
      identity: {
        userPoolId: this.identity.userPool.userPoolId,
        userPoolClientId: this.identity.client.userPoolClientId,
        hostedLoginHost: this.identity.hostedLoginHost,
        userPoolEndpoint: this.identity.userPoolEndpoint,
      },
      api:
        this.qaApi === undefined
          ? { kind: 'external', url: parameters.externalApiUrl! }
          : {
              kind: 'same-origin',
              functionUrls: this.qaApi.functions.functionUrls,
              reportsBucket: this.qaApi.storage.reportsBucket,
              reportKeyStore: this.qaApi.reportKeys.store,
            },
      ...(parameters.customDomain === undefined ? {} : { customDomain: parameters.customDomain }),
      edge: props.edge,
      devOrigins,
    });

    // The site's address exists only now; the sign-in client and the API's outputUrl need it.
    this.identity.allowAppUrl(this.site.url);
    this.qaApi?.publishReportsAt(this.site.reportsUrl);

    new CfnOutput(this, 'SiteUrl', { value: this.site.url, description: 'Open CTPO here' });
    new CfnOutput(this, 'DistributionDomainName', {
      value: this.site.distribution.distributionDomainName,
      description: 'Point the custom domain here (CNAME or alias)',
    });
    new CfnOutput(this, 'UserPoolId', { value: this.identity.userPool.userPoolId, description: 'npm run create-user reads this' });
    new CfnOutput(this, 'UserPoolClientId', { value: this.identity.client.userPoolClientId });
    new CfnOutput(this, 'HostedLoginDomain', { value: this.identity.hostedLoginHost });
    new CfnOutput(this, 'ApiUrl', { value: this.site.runtimeConfig.apiUrl, description: 'Base of /api/toc, /api/run-tests, /api/job-status' });
    if (this.qaApi !== undefined) {
      new CfnOutput(this, 'ReportKeySecretArn', { value: this.qaApi.reportKeys.secret.secretArn, description: 'Rotate the report-link key now: aws secretsmanager rotate-secret --secret-id <this>' });
      new CfnOutput(this, 'ReportsBucketName', { value: this.qaApi.storage.reportsBucket.bucketName });
      new CfnOutput(this, 'JobsTableName', { value: this.qaApi.storage.jobsTable.tableName });
    }
  }
}
