import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '@/locales/en.json';
import { resolveLocale } from '@/lib/i18n/locale';

describe('resolveLocale', () => {
  it('takes the first candidate with a catalogue, by exact tag or by language', () => {
    expect(resolveLocale(['fr-CA', 'de'], ['en', 'fr-ca', 'de'])).toBe('fr-ca');
    expect(resolveLocale(['fr-BE', 'de'], ['en', 'fr', 'de'])).toBe('fr');
    expect(resolveLocale(['pt_BR'], ['en', 'pt-BR'])).toBe('pt-BR');
  });

  it('falls back through en-us to en', () => {
    expect(resolveLocale(['xx', undefined, ''], ['en-US', 'en'])).toBe('en-US');
    expect(resolveLocale(['xx'], ['en', 'fr'])).toBe('en');
    expect(resolveLocale([null])).toBe('en');
  });
});

describe('the English catalogue', () => {
  // The seed's texts, verbatim: a typo here is a typo users see.
  it.each([
    ['app.title', 'CTPO: Course Testing Protocol Observer'],
    ['auth.signIn', 'Sign in'],
    ['auth.signOut', 'Sign out'],
    ['auth.welcome', 'Welcome, {email}'],
    ['help.open', 'Need help? Click the link for instructions on how to use CTPO.'],
    ['help.title', 'How to Use the CTPO Form'],
    ['help.close', 'Close'],
    ['form.username.label', 'Brightspace Username'],
    ['form.password.label', 'Brightspace Password'],
    ['form.siteUrl.label', 'Client Site URL'],
    ['form.orgUnitId.label', 'Org Unit ID'],
    ['form.client.label', 'Client'],
    ['form.chooseModules', 'Choose Modules'],
    ['form.chooseModules.hint', 'Fill in all fields to load modules.'],
    ['form.fetchingModules', 'Fetching modules…'],
    ['form.tocFailed', 'Failed to load TOC'],
    ['modules.legend', 'Modules'],
    ['modules.selectAll', 'Select All'],
    ['modules.deselectAll', 'Deselect All'],
    ['modules.run', 'Run CTPO'],
    ['modules.running', 'Running…'],
    ['run.starting', 'Starting test run...'],
    ['run.success', '✅ Success: {message}'],
    ['run.error', '❌ Error: Failed to start test run'],
    ['job.monitoring', 'Monitoring job'],
    ['job.status.PROVISIONING', 'Setting up environment...'],
    ['job.status.PENDING', 'Job is pending...'],
    ['job.status.RUNNING', 'Job is running...'],
    ['job.status.DEPROVISIONING', 'Cleaning up resources...'],
    ['job.status.SUCCEEDED', 'QA job completed successfully.'],
    ['job.status.FAILED', 'QA job failed. Check logs for details.'],
    ['job.viewOutput', 'View HTML Output'],
    ['job.download', '⬇ Download'],
    ['job.failed', 'Job failed. Check logs for details.'],
  ])('%s is the seed’s text', (id, text) => {
    expect((en as Record<string, string>)[id]).toBe(text);
  });

  it('is flat: every value is a message string', () => {
    expect(Object.values(en).every((value) => typeof value === 'string' && value.length > 0)).toBe(true);
  });

  it('has no message the app never uses', () => {
    const sources = readdirSync('web/src', { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => readFileSync(join('web/src', file), 'utf8'))
      .join('\n');
    // Ids built at run time from a known list of statuses and problem kinds.
    const built = [/^job\.status\.[A-Z]+$/, /^config\.problem\.\w+$/];
    const unused = Object.keys(en).filter((id) => !sources.includes(`'${id}'`) && !sources.includes(`"${id}"`) && !built.some((pattern) => pattern.test(id)));
    expect(unused).toEqual([]);
  });
});
