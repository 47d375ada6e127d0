// The environment variables the CDK stack sets on the Lambda functions and the Fargate task, named
// once so the stack and the code that reads them cannot drift apart.

export const ENV = {
  /** DynamoDB table of job records. */
  jobsTable: 'CTPO_JOBS_TABLE',
  /** DynamoDB table of the findings users dismissed, per course. */
  dismissalsTable: 'CTPO_DISMISSALS_TABLE',
  /** DynamoDB table of each user's protocols, their answers per course and their runs' sign-offs. */
  protocolsTable: 'CTPO_PROTOCOLS_TABLE',
  /** DynamoDB table of the verdict cache: what a run may reuse of the last runs of a course. */
  verdictsTable: 'CTPO_VERDICTS_TABLE',
  /** How long a link that answered well is reused (`12h`, `1d`; seconds without a unit); optional (one day). */
  linkMaxAge: 'CTPO_LINK_MAX_AGE',
  /** Days a job record and its report are kept. */
  reportExpiryDays: 'CTPO_REPORT_EXPIRY_DAYS',
  /** The private bucket the reports are written to, and the key prefix they go under. */
  reportsBucket: 'CTPO_REPORTS_BUCKET',
  reportsPrefix: 'CTPO_REPORTS_PREFIX',
  /**
   * The public base address of the reports (`outputUrl`), with a trailing slash; or a path
   * (`/reports/`) on the site's own origin, whose host CloudFront names in SITE_HOST_HEADER.
   */
  reportsUrl: 'CTPO_REPORTS_URL',
  /** Where and how runs are started. */
  cluster: 'CTPO_CLUSTER_ARN',
  taskDefinition: 'CTPO_TASK_DEFINITION_ARN',
  containerName: 'CTPO_CONTAINER_NAME',
  subnets: 'CTPO_SUBNETS',
  securityGroups: 'CTPO_SECURITY_GROUPS',
  /** The KMS key that encrypts a run's Brightspace credentials for the task. */
  credentialsKey: 'CTPO_CREDENTIALS_KEY_ARN',
  /** The Cognito user pool and web client whose access tokens the API accepts. */
  userPoolId: 'CTPO_USER_POOL_ID',
  userPoolClientId: 'CTPO_USER_POOL_CLIENT_ID',
  /** Runs the whole deployment may have in progress at once; optional (a default applies). */
  maxActiveRuns: 'CTPO_MAX_ACTIVE_RUNS',
  /**
   * Instead of the client id itself: the SSM parameter that holds it, read at cold start. The
   * functions behind CloudFront take it this way because the client's callback URL names the
   * distribution, which names the functions' URLs: a reference from function to client would
   * close that circle.
   */
  userPoolClientIdParameter: 'CTPO_USER_POOL_CLIENT_ID_PARAMETER',
  /** Comma-separated app origins allowed to call the API from another origin. */
  allowedOrigins: 'CTPO_ALLOWED_ORIGINS',
  /**
   * The Secrets Manager secret holding the current report-link signing key, JSON
   * `{ "keyId": "...", "key": "..." }` (api/http/report-capability.ts); rotated every 30 days.
   */
  reportKeySecret: 'CTPO_REPORT_KEY_SECRET_ARN',
  /** The CloudFront KeyValueStore the edge checks report links against; revocations are written there. */
  reportKeyStore: 'CTPO_REPORT_KEY_STORE_ARN',
  /** The role a run's task acts as, through a session tagged with its job (api/aws/job-session.ts). */
  jobRole: 'CTPO_JOB_ROLE_ARN',
  /** Per run, in the task's container overrides: the job, and its encrypted credentials. */
  jobId: 'CTPO_JOB_ID',
  encryptedCredentials: 'CTPO_ENCRYPTED_CREDENTIALS',
  /** ... its AWS session, encrypted as the credentials are. */
  encryptedSession: 'CTPO_ENCRYPTED_SESSION',
  /** ... and the report it compares itself with (its session may read that one), when there is one. */
  baselineReport: 'CTPO_BASELINE_REPORT',
} as const;

/**
 * The header the API's functions read the caller's bearer token from on AWS. CloudFront signs each
 * request to a function URL in the Authorization header itself, so its viewer-request function
 * (infra/edge/api-gate.js) moves the viewer's token here first.
 */
export const EDGE_TOKEN_HEADER = 'x-ctpo-authorization';

/**
 * The host the caller reached the site on, as the edge saw it. The functions cannot be told the
 * distribution's address in their settings (the distribution names their URLs: a circle), so the
 * edge passes it with each request.
 */
export const SITE_HOST_HEADER = 'x-ctpo-site-host';

export type EnvName = (typeof ENV)[keyof typeof ENV];

export type Environment = Readonly<Record<string, string | undefined>>;

/** The value of a variable the stack always sets; its absence is a deployment fault, said plainly. */
export function requireEnv(env: Environment, name: EnvName): string {
  const value = env[name]?.trim();
  if (value === undefined || value === '') {
    throw new Error(`${name} is not set: this code runs only in the CTPO stack, which sets it.`);
  }
  return value;
}

export function requireList(env: Environment, name: EnvName): string[] {
  const values = requireEnv(env, name)
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  if (values.length === 0) throw new Error(`${name} lists nothing: this code runs only in the CTPO stack, which sets it.`);
  return values;
}

export function requirePositiveInteger(env: Environment, name: EnvName): number {
  const text = requireEnv(env, name);
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${name} must be a whole number above 0, not "${text}".`);
  }
  return value;
}

/**
 * The KMS encryption-context key that binds a run's encrypted credentials to its job: a ciphertext
 * decrypts only together with the id of the job it was made for.
 */
export const CREDENTIALS_CONTEXT_KEY = 'ctpo-job-id';
