// How the engine's Chromium is started: with its own sandbox, always. A course page's scripts run in
// this browser, so a renderer bug must stay inside the sandbox (namespaces and seccomp-bpf) rather
// than reach the run's process, its credentials and its files. Chromium will not start its sandbox
// as root: chromium-sandboxed.sh starts it as an unprivileged user when this process is root (a
// developer's container, CI) and as it is otherwise (the runner image runs as a user of its own).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childEnvironment } from '../child-environment.ts';

const WRAPPER = fileURLToPath(new URL('./chromium-sandboxed.sh', import.meta.url));

/**
 * Playwright's launch options that start `executablePath` sandboxed (Playwright adds `--no-sandbox`
 * unless told otherwise), with an allow-listed environment: a renderer runs a course's scripts, and
 * the browser's processes run as another user (nobody, as root), so whatever secret this process's
 * environment holds (a password, cloud keys) would be theirs to read in /proc/<pid>/environ.
 */
export function sandboxedLaunchOptions(executablePath: string): { executablePath: string; chromiumSandbox: true; env: Record<string, string> } {
  return { executablePath: WRAPPER, chromiumSandbox: true, env: { ...childEnvironment(['CTPO_BROWSER_UID']), CTPO_SANDBOXED_CHROMIUM: executablePath } };
}

let sandboxProbe: boolean | undefined;

/**
 * Whether this host lets Chromium build its sandbox: an unprivileged user may create a user
 * namespace (the user the browser runs as: nobody when this process is root). Where it may not (a
 * host that forbids it, such as Fargate today), no browser is started at all and runs check without
 * one, as their reports say: a browser is never started without its sandbox.
 */
export function chromiumSandboxAvailable(): boolean {
  if (sandboxProbe !== undefined) return sandboxProbe;
  const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'] : [];
  const [command, ...args] = [...asUser, 'unshare', '--user', '--pid', '--fork', 'true'];
  const probe = spawnSync(command!, args, { stdio: 'ignore', timeout: 10_000 });
  sandboxProbe = probe.status === 0;
  return sandboxProbe;
}
