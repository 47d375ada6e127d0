// The app on the web: a private bucket behind CloudFront, the app's config.json written at deploy
// time, and, on the same origin, the QA API under /api/* and the reports under /reports/*.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, Fn, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { REPORT_CSP } from '../../api/report/report-csp.ts';
import { acknowledgeGeneratedPolicyWildcards } from './nag.ts';
import type { CustomDomain } from './parameters.ts';

/**
 * Serves index.html for any path whose last segment has no file extension, so the app's client-side
 * routes load on a refresh while a missing script still answers 404 rather than HTML. It runs only
 * on the app's behaviour: /api/* and /reports/* keep their own answers. (CloudFront Functions
 * runtime 2.0: ES5 syntax plus a few later features.)
 */
export const SPA_REWRITE_SOURCE = `function handler(event) {
  var request = event.request;
  var lastSegment = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (lastSegment.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;

/** The app's runtime configuration (docs/design.md, "Runtime configuration of the app"). */
export interface RuntimeConfig {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  oauthDomain: string;
  siteUrl: string;
  apiUrl: string;
  pollIntervalMs: number;
}

export interface SiteIdentity {
  userPoolId: string;
  userPoolClientId: string;
  /** Host only, no scheme. */
  hostedLoginHost: string;
  /** Cognito's API endpoint, which the app calls to refresh tokens. */
  userPoolEndpoint: string;
}

/** The QA API this stack deploys, served on the site's own origin, or an existing one elsewhere. */
export type SiteApi =
  | { kind: 'same-origin'; httpApi: apigwv2.IHttpApi; reportsBucket: s3.IBucket }
  | { kind: 'external'; url: string };

export interface SiteProps {
  /** The built app: index.html, assets/ (hashed by Vite) and any other static files. */
  webDist: string;
  identity: SiteIdentity;
  api: SiteApi;
  customDomain?: CustomDomain;
}

export const POLL_INTERVAL_MS = 10_000;
/** Key prefix of the reports in the reports bucket; CloudFront forwards /reports/<file> as is. */
export const REPORTS_PREFIX = 'reports/';

/** Stops a synth early, and plainly, when the app has not been built. */
export function assertBuiltApp(webDist: string): void {
  if (!existsSync(join(webDist, 'index.html')) || !existsSync(join(webDist, 'assets'))) {
    throw new Error(`The built app is missing: ${webDist} needs index.html and assets/. Run \`npm run build\` first.`);
  }
}

export class Site extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** The site's origin with a trailing slash, e.g. `https://d111.cloudfront.net/`. */
  readonly url: string;
  /** Where reports are served (`<url>reports/`), the job status's `outputUrl`. */
  readonly reportsUrl: string;
  readonly runtimeConfig: RuntimeConfig;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    assertBuiltApp(props.webDist);
    const assetsDir = join(props.webDist, 'assets');
    const region = Stack.of(this).region;

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // The bucket holds only the build, which any deploy writes again.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'The bucket holds only the public build of the app, read through CloudFront; access logs would record nothing worth keeping.',
    });

    const apiOrigin = props.api.kind === 'external' ? new URL(props.api.url).origin : undefined;
    const connectSources = ["'self'", props.identity.userPoolEndpoint, `https://${props.identity.hostedLoginHost}`];
    if (apiOrigin !== undefined) connectSources.push(apiOrigin);

    const appHeaders = new cloudfront.ResponseHeadersPolicy(this, 'AppHeaders', {
      comment: 'CTPO app: security headers; scripts and connections only to the app, Cognito and the QA API',
      securityHeadersBehavior: {
        ...commonSecurityHeaders(),
        contentSecurityPolicy: {
          override: true,
          contentSecurityPolicy: [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self' data:",
            `connect-src ${connectSources.join(' ')}`,
            "form-action 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
            "base-uri 'self'",
          ].join('; '),
        },
      },
      customHeadersBehavior: { customHeaders: [permissionsPolicy()] },
    });

    // index.html, config.json and the other unhashed files carry `no-cache`, hashed assets a year:
    // with a minimum TTL of 0, CloudFront follows each object's own Cache-Control exactly.
    const appCache = new cloudfront.CachePolicy(this, 'AppCache', {
      comment: 'CTPO app: follow the Cache-Control of each object',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.days(1),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      comment: 'Serve index.html for app routes (paths without a file extension)',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE_SOURCE),
    });

    const additionalBehaviors: Record<string, cloudfront.BehaviorOptions> = {};
    if (props.api.kind === 'same-origin') {
      // The API on the site's origin: no CORS preflight on every call, one address in the CSP, and
      // the app's bearer token never leaves the site's origin.
      additionalBehaviors['/api/*'] = {
        origin: new origins.HttpOrigin(Fn.select(2, Fn.split('/', props.api.httpApi.apiEndpoint)), {
          protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        // Forwards Authorization and the body; API Gateway refuses a foreign Host header.
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: new cloudfront.ResponseHeadersPolicy(this, 'ApiHeaders', {
          comment: 'CTPO QA API: JSON only, never framed or run as a page',
          securityHeadersBehavior: {
            ...commonSecurityHeaders(),
            contentSecurityPolicy: { override: true, contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'" },
          },
        }),
      };
      additionalBehaviors[`/${REPORTS_PREFIX}*`] = {
        origin: origins.S3BucketOrigin.withOriginAccessControl(props.api.reportsBucket, {
          originAccessLevels: [cloudfront.AccessLevel.READ],
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: appCache,
        responseHeadersPolicy: new cloudfront.ResponseHeadersPolicy(this, 'ReportHeaders', {
          comment: 'CTPO reports: self-contained pages without scripts, sandboxed away from the app origin',
          securityHeadersBehavior: {
            ...commonSecurityHeaders(),
            contentSecurityPolicy: {
              override: true,
              // The same policy the local server sends (api/report/report-csp.ts says why).
              contentSecurityPolicy: REPORT_CSP,
            },
          },
          customHeadersBehavior: { customHeaders: [permissionsPolicy()] },
        }),
      };
    }

    const certificate =
      props.customDomain === undefined ? undefined : acm.Certificate.fromCertificateArn(this, 'Certificate', props.customDomain.certificateArn);
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'CTPO: Course Testing Protocol Observer',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // North America and Europe: where the users are, at the lowest price class.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      ...(props.customDomain === undefined
        ? {}
        : { domainNames: [props.customDomain.domainName], certificate, minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 }),
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket, { originAccessLevels: [cloudfront.AccessLevel.READ] }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: appCache,
        responseHeadersPolicy: appHeaders,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors,
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'CTPO is used by staff who travel; every request already needs a signed-in user, so a country allow-list would add no protection.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason: 'A WAF web ACL costs a monthly fee at rest; the API requires a Cognito token on every route and API Gateway throttles it.',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason: 'Access logs would hold the IP addresses of every user for no operational need; API Gateway keeps its own access log of the API calls.',
      },
      ...(props.customDomain === undefined
        ? [
            {
              id: 'AwsSolutions-CFR4',
              reason: 'Without a custom domain the distribution uses the default *.cloudfront.net certificate, whose TLS policy cannot be chosen; with one, TLS 1.2 is the minimum.',
            },
          ]
        : []),
    );

    const origin = props.customDomain === undefined ? `https://${this.distribution.distributionDomainName}` : `https://${props.customDomain.domainName}`;
    this.url = `${origin}/`;
    this.reportsUrl = `${origin}/${REPORTS_PREFIX}`;
    this.runtimeConfig = {
      region,
      userPoolId: props.identity.userPoolId,
      userPoolClientId: props.identity.userPoolClientId,
      oauthDomain: props.identity.hostedLoginHost,
      siteUrl: this.url,
      apiUrl: props.api.kind === 'external' ? props.api.url : origin,
      pollIntervalMs: POLL_INTERVAL_MS,
    };

    // Two deployments because Cache-Control applies to a whole deployment. Neither prunes: a client
    // still holding the previous index.html must find the chunks it names.
    const assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      destinationBucket: this.bucket,
      destinationKeyPrefix: 'assets/',
      sources: [s3deploy.Source.asset(assetsDir)],
      cacheControl: [s3deploy.CacheControl.setPublic(), s3deploy.CacheControl.maxAge(Duration.days(365)), s3deploy.CacheControl.immutable()],
      prune: false,
      memoryLimit: 512,
    });
    const shell = new s3deploy.BucketDeployment(this, 'DeployShell', {
      destinationBucket: this.bucket,
      sources: [
        // A config.json in the build is the local one; the deployed one is written below.
        s3deploy.Source.asset(props.webDist, { exclude: ['assets', 'assets/**', 'config.json'] }),
        s3deploy.Source.jsonData('config.json', this.runtimeConfig),
      ],
      cacheControl: [s3deploy.CacheControl.noCache()],
      prune: false,
      memoryLimit: 512,
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    // index.html goes up only once every chunk it names is in place.
    shell.node.addDependency(assets);

    // Both deployments share one handler function that CDK writes and owns.
    const handler = shell.handlerRole.node.scope;
    const handlerReason =
      'CDK’s own BucketDeployment handler: it reads the build from the CDK assets bucket, syncs it into the site bucket and invalidates the distribution; its policy and runtime are CDK’s to keep.';
    acknowledgeGeneratedPolicyWildcards(shell.handlerRole, handlerReason);
    if (handler !== undefined) {
      Validations.of(handler).acknowledge(
        { id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', reason: handlerReason },
        { id: 'AwsSolutions-L1', reason: handlerReason },
      );
    }
  }
}

function commonSecurityHeaders(): Omit<cloudfront.ResponseSecurityHeadersBehavior, 'contentSecurityPolicy'> {
  return {
    strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
    contentTypeOptions: { override: true },
    frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
    referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
  };
}

function permissionsPolicy(): cloudfront.ResponseCustomHeader {
  return { header: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=()', override: true };
}
