// The environment a child process is started with: named variables only, never a copy of ours. The
// server's environment holds secrets (CTPO_LOCAL_PASSWORD, AWS keys, the command line's
// BRIGHTSPACE_PASSWORD), and a child that runs a course's scripts (the browser) or only needs its
// settings (a run's process) must not hold them (docs/security.md).

/** What any program needs to run as this user: where programs are, home, temporary files, locale, time zone, fonts. */
const BASE_NAMES = ['PATH', 'HOME', 'TMPDIR', 'TZ', 'LANG', 'LANGUAGE'];
const BASE_PREFIXES = ['LC_', 'FONTCONFIG_', 'XDG_'];

/**
 * The variables of `env` whose names are in the base list or `names`, or start with one of the base
 * prefixes; nothing else is passed on.
 */
export function childEnvironment(names: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const wanted = new Set([...BASE_NAMES, ...names]);
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (wanted.has(name) || BASE_PREFIXES.some((prefix) => name.startsWith(prefix))) passed[name] = value;
  }
  return passed;
}
