// Lambda entry: EventBridge delivers every "ECS Task State Change" of the runner cluster here, and
// the job its task runs is brought up to date.
import type { EventBridgeEvent } from 'aws-lambda';
import { jobStoreFromEnv } from '../aws-deps.ts';
import { ENV, requireEnv } from '../settings.ts';
import { applyTaskStateChange } from '../task-state-sync.ts';
import type { EcsTaskStateDetail } from '../task-state-sync.ts';

const store = jobStoreFromEnv(process.env);
const containerName = requireEnv(process.env, ENV.containerName);

export async function handler(event: EventBridgeEvent<'ECS Task State Change', EcsTaskStateDetail>): Promise<void> {
  const result = await applyTaskStateChange(store, containerName, event.detail);
  if ('ignored' in result) {
    console.info(`task ${event.detail.taskArn ?? '?'} ${event.detail.lastStatus ?? '?'}: ignored, ${result.ignored}`);
  } else {
    console.info(`task ${event.detail.taskArn ?? '?'} ${event.detail.lastStatus ?? '?'}: job ${result.job.id} is ${result.job.status}`);
  }
}
