// The whole deployment in one stack: the identity, the site and, unless the app is pointed at an
// existing one, the QA API. One stack because the three refer to each other (the sign-in client
// needs the site's address, the site serves the API, the API checks the client's tokens); across
// stacks those references would form a cycle.
import { CfnOutput, Stack, Token } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Identity } from './identity.ts';
import type { CtpoParameters } from './parameters.ts';
import { QaApi } from './qa-api.ts';
import { Site, assertBuiltApp } from './site.ts';

/** Where a developer runs the app: Vite's dev server and the local stack. */
export const LOCAL_APP_URLS = ['http://localhost:5173/', 'https://localhost:8443/'] as const;

export type CtpoStackProps = StackProps & { parameters: Omit<CtpoParameters, 'stackName'> };

export class CtpoStack extends Stack {
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
    super(scope, id, props);
    const { parameters } = props;
    assertBuiltApp(parameters.webDist);

    this.identity = new Identity(this, 'Identity', {
      ...(parameters.domainPrefix === undefined ? {} : { domainPrefix: parameters.domainPrefix }),
      localAppUrls: LOCAL_APP_URLS,
    });

    if (parameters.externalApiUrl === undefined) {
      this.qaApi = new QaApi(this, 'QaApi', {
        userPool: this.identity.userPool,
        client: this.identity.client,
        reportExpiryDays: parameters.reportExpiryDays,
        corsOrigins: LOCAL_APP_URLS.map((url) => new URL(url).origin),
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
          : { kind: 'same-origin', httpApi: this.qaApi.httpApi, reportsBucket: this.qaApi.reportsBucket },
      ...(parameters.customDomain === undefined ? {} : { customDomain: parameters.customDomain }),
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
      new CfnOutput(this, 'ApiEndpoint', { value: this.qaApi.httpApi.apiEndpoint, description: 'The HTTP API itself, for local development' });
      new CfnOutput(this, 'ReportsBucketName', { value: this.qaApi.reportsBucket.bucketName });
      new CfnOutput(this, 'JobsTableName', { value: this.qaApi.jobsTable.tableName });
    }
  }
}
