// The runs themselves: one ECS Fargate task per run, from the runner image, in a VPC of its own that
// admits nothing inbound; the key that hands a task its Brightspace credentials, which only the task
// may decrypt; and what the task may read and write: only its own job, through a session of the job
// role tagged with that job by the function that starts it (api/aws/job-session.ts).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Fn, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecrAssets from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { VERDICTS_PREFIX } from '../../../api/aws/dynamo-verdict-cache.ts';
import { JOB_SESSION_SECONDS, JOB_SESSION_TAGS, JOB_UPDATE_ATTRIBUTES } from '../../../api/aws/job-session.ts';
import { CREDENTIALS_CONTEXT_KEY, ENV } from '../../../api/aws/settings.ts';
import { Grouping } from '../logical-ids.ts';
import { acknowledgeWildcardResource } from '../nag.ts';
import { REPORTS_PREFIX } from './storage.ts';
import type { QaApiStorage } from './storage.ts';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const RUNNER_CONTAINER = 'runner';
export const RUNNER_DOCKERFILE = 'infra/runner/Dockerfile';
/** The runner task's memory: the engine and a headless Chromium, with room to spare. */
export const RUNNER_MEMORY_MIB = 3072;
/**
 * The week a build takes Chromium's security release as of (ISO 8601, `2026-W48`): a build arg of
 * the runner image, so a deploy in a new week builds Chromium's layer again (infra/runner/Dockerfile)
 * and a weekly scheduled deploy keeps the browser current (docs/design.md, AWS).
 */
export function chromiumRefreshWeek(now: Date): string {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  // The Thursday of this week decides its year (ISO 8601).
  day.setUTCDate(day.getUTCDate() + 3 - ((day.getUTCDay() + 6) % 7));
  const week = 1 + Math.floor((day.getTime() - Date.UTC(day.getUTCFullYear(), 0, 1)) / (7 * 86_400_000));
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** Binds a use of the credentials key to one job: the job id, and nothing else, is the encryption context. */
export function boundToAJob(): Record<string, Record<string, unknown>> {
  return {
    'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [CREDENTIALS_CONTEXT_KEY] },
    Null: { [`kms:EncryptionContext:${CREDENTIALS_CONTEXT_KEY}`]: 'false' },
  };
}

/** `${aws:PrincipalTag/<tag>}`: the value of one of the job session's tags, in a policy. */
const sessionTag = (tag: string): string => `\${aws:PrincipalTag/${tag}}`;

export interface QaApiRunnerProps {
  /** The jobs a task keeps current, the reports it writes, the history it compares with. */
  storage: QaApiStorage;
  /** Days a report and its job record are kept. */
  reportExpiryDays: number;
}

export class QaApiRunner extends Grouping {
  readonly cluster: ecs.Cluster;
  readonly taskDefinition: ecs.FargateTaskDefinition;
  /** Encrypts the Brightspace credentials a run hands to its task; only the task role decrypts. */
  readonly credentialsKey: kms.Key;
  /** What a function that starts runs needs to know: where and how to start a task. */
  readonly runSettings: Record<string, string>;
  private readonly storage: QaApiStorage;
  private jobRole: iam.Role | undefined;

  constructor(scope: Construct, id: string, props: QaApiRunnerProps) {
    super(scope, id);
    const { storage } = props;
    this.storage = storage;

    // Public subnets and no NAT gateway: a NAT gateway costs about 32 USD a month at rest, and a task
    // only makes outbound calls (Brightspace, the links it checks, AWS APIs). Its security group
    // admits nothing inbound.
    const vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 }],
    });
    Validations.of(vpc).acknowledge({
      id: 'CloudFormation-Validate::W3010',
      reason: 'The stack names its two zones (CtpoStack.availabilityZones) so synth needs no AWS lookup; `a` and `b` exist in every region.',
    });
    vpc.addFlowLog('FlowLog', {
      trafficType: ec2.FlowLogTrafficType.REJECT,
      destination: ec2.FlowLogDestination.toCloudWatchLogs(
        new logs.LogGroup(this, 'FlowLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
      ),
    });
    const securityGroup = new ec2.SecurityGroup(this, 'RunnerSecurityGroup', {
      vpc,
      description: 'CTPO test runs: outbound only',
      allowAllOutbound: true,
    });

    this.cluster = new ecs.Cluster(this, 'Cluster', { vpc, containerInsightsV2: ecs.ContainerInsights.DISABLED });
    Validations.of(this.cluster).acknowledge({
      id: 'AwsSolutions-ECS4',
      reason: 'Runs are short batch tasks whose outcome is in the jobs table and whose output is in CloudWatch Logs; Container Insights metrics would bill at rest.',
    });

    this.credentialsKey = new kms.Key(this, 'CredentialsKey', {
      description: 'CTPO: encrypts the Brightspace credentials a run hands to its Fargate task',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });

    // The engine stays under 800 MB; headless Chromium for the browser checks takes 500-650 MiB more
    // (`npm run browser-memory`, docs/reliability.md). 3 GB keeps that peak under half the task.
    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Runner', {
      cpu: 1024,
      memoryLimitMiB: RUNNER_MEMORY_MIB,
      runtimePlatform: { operatingSystemFamily: ecs.OperatingSystemFamily.LINUX, cpuArchitecture: ecs.CpuArchitecture.X86_64 },
    });
    this.taskDefinition.addVolume({ name: 'tmp' });
    const container = this.taskDefinition.addContainer(RUNNER_CONTAINER, {
      image: ecs.ContainerImage.fromAsset(REPO_ROOT, {
        file: RUNNER_DOCKERFILE,
        platform: ecrAssets.Platform.LINUX_AMD64,
        buildArgs: { CHROMIUM_REFRESH: chromiumRefreshWeek(new Date()) },
        // Only what the image copies: the asset hash then ignores node_modules, the app and tests.
        exclude: ['*', '!package.json', '!package-lock.json', '!api', '!infra', 'infra/*', '!infra/runner', '**/*.tsbuildinfo'],
      }),
      essential: true,
      readonlyRootFilesystem: true,
      logging: ecs.LogDrivers.awsLogs({
        streamPrefix: 'run',
        logGroup: new logs.LogGroup(this, 'RunnerLogs', { retention: logs.RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY }),
      }),
      environment: {
        [ENV.jobsTable]: storage.jobsTable.tableName,
        [ENV.dismissalsTable]: storage.dismissalsTable.tableName,
        [ENV.protocolsTable]: storage.protocolsTable.tableName,
        [ENV.verdictsTable]: storage.verdictsTable.tableName,
        [ENV.reportExpiryDays]: String(props.reportExpiryDays),
        [ENV.reportsBucket]: storage.reportsBucket.bucketName,
        [ENV.reportsPrefix]: REPORTS_PREFIX,
        [ENV.credentialsKey]: this.credentialsKey.keyArn,
        NODE_ENV: 'production',
      },
    });
    container.addMountPoints({ sourceVolume: 'tmp', containerPath: '/tmp', readOnly: false });
    // Residual, written down: Chromium's sandbox needs unprivileged user namespaces, which Fargate
    // does not offer (aws/containers-roadmap#2102). The engine never starts the browser without its
    // sandbox (api/a11y/sandboxed-chromium.ts), so on Fargate runs check accessibility without a
    // browser (jsdom: colour contrast and a few layout rules are not checked, and each report's
    // header says so) until the runner moves to capacity that allows them (ECS on EC2 with a
    // seccomp profile that permits clone(CLONE_NEWUSER)), where the same image runs sandboxed.
    Validations.of(this.taskDefinition).acknowledge({
      id: 'AwsSolutions-ECS2',
      reason: 'The environment holds only resource names; the per-run credentials arrive KMS-encrypted in the RunTask overrides.',
    });

    // The task's own role may only decrypt what its run was handed: the credentials and the session
    // of the job role that is all it may act with (jobRoleFor). A course that breaks out of the
    // browser holds this role and its own job's session; neither reaches another job or report.
    const taskRole = this.taskDefinition.taskRole;
    taskRole.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['kms:Decrypt'], resources: [this.credentialsKey.keyArn], conditions: boundToAJob() }));
    // The key policy's account statement lets IAM policies grant use of the key; these make sure no
    // policy can ever let anyone but the runner read the credentials: Decrypt only by the runner, and
    // no one may re-encrypt a ciphertext under a key of their own or hand out a grant (the two other
    // ways to the plaintext); CTPO uses neither.
    this.credentialsKey.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'OnlyTheRunnerDecrypts',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['kms:Decrypt'],
        resources: ['*'],
        conditions: { ArnNotEquals: { 'aws:PrincipalArn': taskRole.roleArn } },
      }),
    );
    this.credentialsKey.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'NoOtherWayToThePlaintext',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['kms:ReEncryptFrom', 'kms:ReEncryptTo', 'kms:CreateGrant'],
        resources: ['*'],
      }),
    );
    // Residual, written down: the key's administration (kms:PutKeyPolicy, kms:ScheduleKeyDeletion,
    // and the like) stays with the account's principals that IAM allows it, because CloudFormation
    // deploys and deletes this key with them and a deny would lock the stack out of its own key. A
    // principal allowed to change the key policy could remove the deny above and then decrypt: such
    // a change is an administrator's act, recorded in CloudTrail (PutKeyPolicy is a management event),
    // and a ciphertext is bound to one job and kept only in that job's RunTask overrides, which ECS
    // forgets an hour after the task stops.
    Validations.of(this.taskDefinition.obtainExecutionRole()).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'ecr:GetAuthorizationToken, which ECS needs to pull the runner image, applies to no resource narrower than *.',
    });

    this.runSettings = {
      [ENV.cluster]: this.cluster.clusterArn,
      [ENV.taskDefinition]: this.taskDefinition.taskDefinitionArn,
      [ENV.containerName]: RUNNER_CONTAINER,
      [ENV.subnets]: Fn.join(',', vpc.publicSubnets.map((subnet) => subnet.subnetId)),
      [ENV.securityGroups]: securityGroup.securityGroupId,
      [ENV.credentialsKey]: this.credentialsKey.keyArn,
    };
  }

  /**
   * The role each run's task acts as, which only `starter` may assume, and only with the session
   * tags of the job it starts (api/aws/job-session.ts). Its policy names those tags, so a session
   * reaches only its own job's item (and may not change who owns it: job-status signs report links
   * for that owner), its own report's three objects, the one previous report it was handed to
   * compare with, and its owner's dismissals and protocols. Tags set by the starter, never by the
   * task: the task's role cannot assume this one.
   */
  jobRoleFor(starter: iam.IRole): iam.Role {
    if (this.jobRole !== undefined) throw new Error('Runs are started by one function only.');
    const { storage } = this;
    const tagKeys = Object.values(JOB_SESSION_TAGS);
    const role = new iam.Role(this, 'JobRole', {
      description: 'CTPO: what one run may touch, through a session tagged with its job',
      assumedBy: new iam.SessionTagsPrincipal(
        new iam.PrincipalWithConditions(new iam.ArnPrincipal(starter.roleArn), {
          // Every session names its job, its owner, its report and its course, and no other tag.
          'ForAllValues:StringEquals': { 'aws:TagKeys': tagKeys },
          StringLike: Object.fromEntries([JOB_SESSION_TAGS.job, JOB_SESSION_TAGS.owner, JOB_SESSION_TAGS.report, JOB_SESSION_TAGS.course].map((tag) => [`aws:RequestTag/${tag}`, '?*'])),
        }),
      ),
      // Assumed with the starter's own role credentials: such a session lasts an hour at most.
      maxSessionDuration: Duration.seconds(JOB_SESSION_SECONDS),
    });
    const job = sessionTag(JOB_SESSION_TAGS.job);
    const owner = sessionTag(JOB_SESSION_TAGS.owner);
    role.addToPolicy(new iam.PolicyStatement({
      sid: 'ItsOwnJob',
      actions: ['dynamodb:GetItem'],
      resources: [storage.jobsTable.tableArn],
      conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [job] } },
    }));
    role.addToPolicy(new iam.PolicyStatement({
      sid: 'ItsOwnJobsProgressNotItsOwner',
      actions: ['dynamodb:UpdateItem'],
      resources: [storage.jobsTable.tableArn],
      conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [job], 'dynamodb:Attributes': [...JOB_UPDATE_ATTRIBUTES] } },
    }));
    // The owner's dismissals of the course (partition `["<owner>",<site>,<org unit>]`,
    // api/aws/dynamo-dismissal-store.ts), and the client's protocol and the course's answers
    // (`["protocols","<owner>"]`, `["answers","<owner>",...]`, api/aws/dynamo-protocol-store.ts):
    // read only, and only the owner's. An owner is a Cognito sub, which holds no wildcard.
    role.addToPolicy(new iam.PolicyStatement({
      sid: 'ItsOwnersDismissals',
      actions: ['dynamodb:Query'],
      resources: [storage.dismissalsTable.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`["${owner}",*`] } },
    }));
    role.addToPolicy(new iam.PolicyStatement({
      sid: 'ItsOwnersProtocols',
      actions: ['dynamodb:GetItem', 'dynamodb:Query'],
      resources: [storage.protocolsTable.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`["protocols","${owner}"]`, `["answers","${owner}",*`] } },
    }));
    // Its report's HTML and its JSON and CSV twins (`<name>.html` and so on; a name holds no dot),
    // written, or deleted when the run is cancelled while it writes them (jobs/execute-job.ts).
    const ownReport = storage.reportsBucket.arnForObjects(`${REPORTS_PREFIX}${sessionTag(JOB_SESSION_TAGS.report)}.*`);
    role.addToPolicy(new iam.PolicyStatement({ sid: 'ItsOwnReport', actions: ['s3:PutObject', 's3:DeleteObject'], resources: [ownReport] }));
    acknowledgeWildcardResource(role, ownReport, "The session's report tag names one run's report; the wildcard is its three extensions.");
    // The JSON twin of the owner's previous run of the course, which the starter looked up.
    const baseline = storage.reportsBucket.arnForObjects(`${REPORTS_PREFIX}${sessionTag(JOB_SESSION_TAGS.baseline)}.json`);
    role.addToPolicy(new iam.PolicyStatement({ sid: 'ThePreviousReport', actions: ['s3:GetObject'], resources: [baseline] }));
    // Its course's cached verdicts (api/aws/dynamo-verdict-cache.ts): the partition `<site origin>/<org
    // unit>` read, its entries written and deleted (in batches), and its large values under
    // `verdicts/<partition>/`. Another course's verdicts are out of reach, so a run cannot make another
    // client's faults vanish from their next report; and so no run drops another course: the number of
    // courses is bounded by the entries' time to live. A tag value holds no wildcard, and a partition
    // holds no `/` after its origin's host but the one before its org unit, so no course's prefix is
    // another's.
    const course = sessionTag(JOB_SESSION_TAGS.course);
    role.addToPolicy(new iam.PolicyStatement({
      sid: 'ItsCoursesVerdicts',
      actions: ['dynamodb:Query', 'dynamodb:BatchWriteItem'],
      resources: [storage.verdictsTable.tableArn],
      conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [course] } },
    }));
    const verdictObjects = storage.reportsBucket.arnForObjects(`${VERDICTS_PREFIX}${course}/*`);
    role.addToPolicy(new iam.PolicyStatement({ sid: 'ItsCoursesVerdictValues', actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], resources: [verdictObjects] }));
    acknowledgeWildcardResource(role, verdictObjects, "The session's course tag names one course's verdict values; the wildcard is that course's entries.");
    starter.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['sts:AssumeRole', 'sts:TagSession'], resources: [role.roleArn] }));
    this.jobRole = role;
    return role;
  }
}
