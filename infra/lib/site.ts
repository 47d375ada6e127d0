// The app on the web: a private bucket behind CloudFront, the app's config.json written at deploy
// time, and, on the same origin, the QA API under /api/* and the reports under /reports/*, both
// guarded at the edge (infra/edge/), the whole distribution behind the rate-limiting web ACL.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack, Stage, Validations } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { EDGE_TOKEN_HEADER, SITE_HOST_HEADER } from '../../api/aws/settings.ts';
import { REPORT_CSP } from '../../api/report/report-csp.ts';
import { acknowledgeGeneratedPolicyWildcards } from './nag.ts';
import type { CustomDomain } from './parameters.ts';
import type { ApiRoute } from './qa-api/functions.ts';
import { REPORTS_PREFIX } from './qa-api/storage.ts';

const EDGE_CODE = join(dirname(fileURLToPath(import.meta.url)), '..', 'edge');
export const REPORT_GATE_FILE = join(EDGE_CODE, 'report-gate.js');
export const API_GATE_FILE = join(EDGE_CODE, 'api-gate.js');
export const BODY_HASH_FILE = join(EDGE_CODE, 'body-hash.cjs');
/** The query names GET /api/jobs, /api/dismissals and DELETE /api/protocols read (api/http/validate-history.ts, protocol-routes.ts). */
export const HISTORY_QUERY_NAMES = ['limit', 'cursor', 'siteUrl', 'orgUnitId', 'fingerprint', 'client'] as const;

/** The API behaviours' viewer-request function, trusting `devOrigins` for CORS (none by default). */
export function apiGateSource(devOrigins: readonly string[]): string {
  const source = readFileSync(API_GATE_FILE, 'utf8');
  const placeholder = 'var DEV_ORIGINS = [];';
  if (!source.includes(placeholder)) throw new Error(`${API_GATE_FILE} must declare \`${placeholder}\` for the stack to fill in.`);
  return source.replace(placeholder, `var DEV_ORIGINS = ${JSON.stringify(devOrigins)};`);
}

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
  | {
      kind: 'same-origin';
      functionUrls: Record<ApiRoute, lambda.IFunctionUrl>;
      reportsBucket: s3.IBucket;
      /** The keys the reports behaviour checks report links with. */
      reportKeyStore: cloudfront.IKeyValueStore;
    }
  | { kind: 'external'; url: string };

/** What the site takes from the us-east-1 stack (infra/lib/edge.ts). */
export interface SiteEdge {
  /** The edge stack's construct id: the API's Lambda@Edge function goes into it. */
  stackId: string;
  webAclArn: string;
}

export interface SiteProps {
  /** The built app: index.html, assets/ (hashed by Vite) and any other static files. */
  webDist: string;
  identity: SiteIdentity;
  api: SiteApi;
  customDomain?: CustomDomain;
  edge: SiteEdge;
  /** Origins of apps served elsewhere that may call the API (none unless the deployment asks). */
  devOrigins: readonly string[];
}

export const POLL_INTERVAL_MS = 10_000;

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
  /**
   * Where reports are served, as the API's functions are told it: `/reports/` on the site's own
   * origin, whose host the edge passes along with each request (the functions' settings cannot
   * name the distribution, which names their URLs).
   */
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
      // the app's bearer token never leaves the site's origin. Each route has its own function URL;
      // origin access control signs every request to them, so CloudFront is the only way in.
      const apiGate = new cloudfront.Function(this, 'ApiGate', {
        comment: 'CTPO API: routes, methods and CORS preflights; the bearer token moves aside for the origin signature',
        runtime: cloudfront.FunctionRuntime.JS_2_0,
        code: cloudfront.FunctionCode.fromInline(apiGateSource(props.devOrigins)),
      });
      const bodyHash = new cloudfront.experimental.EdgeFunction(this, 'ApiBodyHash', {
        stackId: props.edge.stackId,
        description: 'CTPO API: adds the SHA-256 of a POST body, which a function URL behind origin access control requires',
        runtime: lambda.Runtime.NODEJS_22_X,
        handler: 'index.handler',
        code: lambda.Code.fromInline(readFileSync(BODY_HASH_FILE, 'utf8')),
        memorySize: 128,
        timeout: Duration.seconds(5),
      });
      // The function itself is made in the edge stack, under the same id.
      const edgeFunction = Stage.of(this)?.node.findChild(props.edge.stackId).node.findChild('ApiBodyHash');
      if (edgeFunction === undefined) throw new Error(`The Lambda@Edge function is not in the ${props.edge.stackId} stack.`);
      Validations.of(edgeFunction).acknowledge(
        {
          id: 'AwsSolutions-L1',
          reason: 'Lambda@Edge takes only some Lambda runtimes; Node.js 22 is the newest it is documented to run. The function is a few lines of plain Node (infra/edge/body-hash.cjs).',
        },
        {
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason: 'Lambda@Edge writes its logs in whichever region serves the request, to log groups it names itself; the basic execution policy is what CloudFront documents for that.',
        },
      );
      const apiRequests = new cloudfront.OriginRequestPolicy(this, 'ApiRequests', {
        comment: 'CTPO API: the caller token (moved aside by the gate), the body type and the origin; nothing else',
        headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList('content-type', 'accept', 'origin', EDGE_TOKEN_HEADER, SITE_HOST_HEADER),
        queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.none(),
        cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
      });
      // The history routes read their query (a page's cursor, a course, a finding): only those names go on.
      const historyRequests = new cloudfront.OriginRequestPolicy(this, 'ApiHistoryRequests', {
        comment: 'CTPO API history routes: as the other routes, plus the query names they read',
        headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList('content-type', 'accept', 'origin', EDGE_TOKEN_HEADER, SITE_HOST_HEADER),
        queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.allowList(...HISTORY_QUERY_NAMES),
        cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
      });
      const apiHeaders = new cloudfront.ResponseHeadersPolicy(this, 'ApiHeaders', {
        comment: 'CTPO QA API: JSON only, never framed or run as a page',
        securityHeadersBehavior: {
          ...commonSecurityHeaders(),
          contentSecurityPolicy: { override: true, contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'" },
        },
      });
      const accessControl = new cloudfront.FunctionUrlOriginAccessControl(this, 'ApiAccess', {
        description: 'CTPO API: CloudFront signs every request to the function URLs',
        signing: cloudfront.Signing.SIGV4_ALWAYS,
      });
      const { functionUrls } = props.api;
      const originOf = (route: ApiRoute) =>
        origins.FunctionUrlOrigin.withOriginAccessControl(functionUrls[route], {
          originAccessControl: accessControl,
          // The table of contents answers within 25 s; CloudFront's default wait is 30 s.
          readTimeout: Duration.seconds(30),
        });
      const apiBehavior = (origin: cloudfront.IOrigin, post: boolean, requests: cloudfront.IOriginRequestPolicy = apiRequests): cloudfront.BehaviorOptions => ({
        origin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy: requests,
        responseHeadersPolicy: apiHeaders,
        functionAssociations: [{ function: apiGate, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        ...(post ? { edgeLambdas: [{ functionVersion: bodyHash.currentVersion, eventType: cloudfront.LambdaEdgeEventType.ORIGIN_REQUEST, includeBody: true }] } : {}),
      });
      const jobStatusOrigin = originOf('jobStatus');
      additionalBehaviors['/api/toc'] = apiBehavior(originOf('toc'), true);
      additionalBehaviors['/api/run-tests'] = apiBehavior(originOf('runTests'), true);
      additionalBehaviors['/api/job-status/*'] = apiBehavior(jobStatusOrigin, false);
      additionalBehaviors['/api/jobs'] = apiBehavior(originOf('jobs'), false, historyRequests);
      additionalBehaviors['/api/jobs/*'] = apiBehavior(originOf('cancelJob'), false);
      // PUT carries a body, whose hash the function URL needs.
      additionalBehaviors['/api/dismissals'] = apiBehavior(originOf('dismissals'), true, historyRequests);
      const protocolsOrigin = originOf('protocols');
      additionalBehaviors['/api/protocols'] = apiBehavior(protocolsOrigin, true, historyRequests);
      additionalBehaviors['/api/protocols/runs/*'] = apiBehavior(protocolsOrigin, true);
      additionalBehaviors['/api/report-links'] = apiBehavior(originOf('reportLinks'), false);
      // Any other /api/ path: the gate answers 404 (or 405) before the origin is ever asked.
      additionalBehaviors['/api/*'] = apiBehavior(jobStatusOrigin, false);

      const reportGate = new cloudfront.Function(this, 'ReportGate', {
        comment: 'CTPO reports: only through a signed, unexpired link (api/http/report-capability.ts)',
        runtime: cloudfront.FunctionRuntime.JS_2_0,
        code: cloudfront.FunctionCode.fromFile({ filePath: REPORT_GATE_FILE }),
        keyValueStore: props.api.reportKeyStore,
      });
      additionalBehaviors[`/${REPORTS_PREFIX}*`] = {
        origin: origins.S3BucketOrigin.withOriginAccessControl(props.api.reportsBucket, {
          originAccessLevels: [cloudfront.AccessLevel.READ],
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: appCache,
        functionAssociations: [{ function: reportGate, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        responseHeadersPolicy: new cloudfront.ResponseHeadersPolicy(this, 'ReportHeaders', {
          comment: 'CTPO reports: self-contained pages without scripts, sandboxed away from the app origin',
          securityHeadersBehavior: {
            ...commonSecurityHeaders(),
            // The link itself is the permission: no address of a report leaves in a Referer.
            referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
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
      webAclId: props.edge.webAclArn,
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'CTPO is used by staff who travel; every request already needs a signed-in user, so a country allow-list would add no protection.',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason: 'Access logs would hold the IP addresses of every user for no operational need; WAF keeps sampled requests and metrics of what it blocks, and each API function logs its own faults.',
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
    this.reportsUrl = `/${REPORTS_PREFIX}`;
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
