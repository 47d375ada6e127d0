// The deployment's parameters: read from CDK context (`cdk deploy -c name=value`) or the environment,
// checked once, and handed to the stack as one typed object. Every problem is reported at once, in
// words that say which setting to fix.

export interface CustomDomain {
  /** The site's host name, e.g. `ctpo.example.com`. */
  domainName: string;
  /** An ACM certificate in us-east-1 (CloudFront's region) that covers `domainName`. */
  certificateArn: string;
}

export interface CtpoParameters {
  stackName: string;
  /**
   * The hosted-login domain prefix (`<prefix>.auth.ca-central-1.amazoncognito.com`). Undefined means
   * `ctpo-<account id>`, which is unique without anyone having to pick a name.
   */
  domainPrefix?: string;
  customDomain?: CustomDomain;
  /** An existing QA API the app should call instead of the one this stack deploys. */
  externalApiUrl?: string;
  /** Days a report (and its job record) is kept. */
  reportExpiryDays: number;
  /** The built app (`npm run build`). */
  webDist: string;
  /**
   * Let the developer origins (Vite's `http://localhost:5173` and the local stack's
   * `https://localhost:8443`) sign in to this deployment and call its API. Off unless asked for:
   * any page served on those addresses of any machine could then use a signed-in user's session.
   */
  devOrigins: boolean;
}

/** One setting: its context key, its environment variable, and what it means. */
export const PARAMETERS = {
  stackName: { context: 'stackName', env: 'CTPO_STACK_NAME' },
  domainPrefix: { context: 'domainPrefix', env: 'CTPO_DOMAIN_PREFIX' },
  domainName: { context: 'domainName', env: 'CTPO_DOMAIN_NAME' },
  certificateArn: { context: 'certificateArn', env: 'CTPO_CERTIFICATE_ARN' },
  externalApiUrl: { context: 'externalApiUrl', env: 'CTPO_EXTERNAL_API_URL' },
  reportExpiryDays: { context: 'reportExpiryDays', env: 'CTPO_REPORT_EXPIRY_DAYS' },
  webDist: { context: 'webDist', env: 'CTPO_WEB_DIST' },
  devOrigins: { context: 'devOrigins', env: 'CTPO_DEV_ORIGINS' },
} as const;

export const DEFAULTS = {
  stackName: 'Ctpo',
  reportExpiryDays: 30,
  webDist: 'web/dist',
  devOrigins: false,
} as const;

export interface ParameterSource {
  /** A context value (`-c name=value` arrives as a string; cdk.json may hold other types). */
  context(key: string): unknown;
  env: Readonly<Record<string, string | undefined>>;
}

export class ParameterError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid deployment parameters:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ParameterError';
    this.problems = problems;
  }
}

// Cognito's rules for a domain prefix: lower-case letters, digits and hyphens, no hyphen at either
// end, and none of the words AWS reserves.
const DOMAIN_PREFIX = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const RESERVED_PREFIX_WORDS = ['aws', 'amazon', 'cognito'];
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CLOUDFRONT_CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/;
// CloudFormation stack names: a letter first, then letters, digits and hyphens, 128 at most.
const STACK_NAME = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;

export function readParameters(source: ParameterSource): CtpoParameters {
  const problems: string[] = [];

  const read = (name: keyof typeof PARAMETERS): string | undefined => {
    const { context, env } = PARAMETERS[name];
    const fromContext = source.context(context);
    const value = fromContext ?? source.env[env];
    if (value === undefined || value === null) return undefined;
    const text = String(value).trim();
    return text === '' ? undefined : text;
  };
  const describe = (name: keyof typeof PARAMETERS): string =>
    `${PARAMETERS[name].context} (context) / ${PARAMETERS[name].env} (environment)`;

  const stackName = read('stackName') ?? DEFAULTS.stackName;
  if (!STACK_NAME.test(stackName)) {
    problems.push(`${describe('stackName')}: "${stackName}" is not a stack name (a letter, then letters, digits or hyphens).`);
  }

  const domainPrefix = read('domainPrefix');
  if (domainPrefix !== undefined) {
    if (!DOMAIN_PREFIX.test(domainPrefix)) {
      problems.push(
        `${describe('domainPrefix')}: "${domainPrefix}" must be 1 to 63 lower-case letters, digits or hyphens, not starting or ending with a hyphen.`,
      );
    } else if (RESERVED_PREFIX_WORDS.some((word) => domainPrefix.includes(word))) {
      problems.push(`${describe('domainPrefix')}: "${domainPrefix}" must not contain ${RESERVED_PREFIX_WORDS.join(', ')} (Cognito refuses them).`);
    }
  }

  const domainName = read('domainName')?.toLowerCase();
  const certificateArn = read('certificateArn');
  let customDomain: CustomDomain | undefined;
  if (domainName !== undefined || certificateArn !== undefined) {
    if (domainName === undefined || certificateArn === undefined) {
      problems.push(`${describe('domainName')} and ${describe('certificateArn')} go together: set both or neither.`);
    } else {
      if (!HOST_NAME.test(domainName)) problems.push(`${describe('domainName')}: "${domainName}" is not a host name.`);
      if (!CLOUDFRONT_CERTIFICATE_ARN.test(certificateArn)) {
        problems.push(
          `${describe('certificateArn')}: "${certificateArn}" must be an ACM certificate ARN in us-east-1, the only region CloudFront takes certificates from.`,
        );
      }
      customDomain = { domainName, certificateArn };
    }
  }

  const externalApiUrlText = read('externalApiUrl');
  let externalApiUrl: string | undefined;
  if (externalApiUrlText !== undefined) {
    const url = URL.parse(externalApiUrlText);
    if (url === null || url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
      problems.push(`${describe('externalApiUrl')}: "${externalApiUrlText}" must be an https:// address with no credentials, query or fragment.`);
    } else {
      // The app appends `/api/...`: keep the base without a trailing slash.
      externalApiUrl = url.href.replace(/\/+$/, '');
    }
  }

  const expiryText = read('reportExpiryDays');
  let reportExpiryDays: number = DEFAULTS.reportExpiryDays;
  if (expiryText !== undefined) {
    const days = Number(expiryText);
    if (!/^\d+$/.test(expiryText) || !Number.isSafeInteger(days) || days < 1 || days > 3650) {
      problems.push(`${describe('reportExpiryDays')}: "${expiryText}" must be a whole number of days from 1 to 3650.`);
    } else {
      reportExpiryDays = days;
    }
  }

  const webDist = read('webDist') ?? DEFAULTS.webDist;

  const devOriginsText = read('devOrigins')?.toLowerCase();
  let devOrigins: boolean = DEFAULTS.devOrigins;
  if (devOriginsText !== undefined) {
    if (devOriginsText !== 'true' && devOriginsText !== 'false') {
      problems.push(`${describe('devOrigins')}: "${devOriginsText}" must be true or false.`);
    } else {
      devOrigins = devOriginsText === 'true';
    }
  }

  if (problems.length > 0) throw new ParameterError(problems);
  return {
    stackName,
    ...(domainPrefix === undefined ? {} : { domainPrefix }),
    ...(customDomain === undefined ? {} : { customDomain }),
    ...(externalApiUrl === undefined ? {} : { externalApiUrl }),
    reportExpiryDays,
    webDist,
    devOrigins,
  };
}
