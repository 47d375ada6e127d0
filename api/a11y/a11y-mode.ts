// How this machine's runs will check accessibility, said once at the start of `npm start` and
// `npm run ctpo`.
import { describeAccessibilityMode, enhancedContrastFromEnv, findChromium } from './a11y-runner.ts';
import { rulesNotRun } from './axe-rules.ts';

export function accessibilityModeLine(env: Record<string, string | undefined> = process.env, enhancedContrast = enhancedContrastFromEnv(env)): string {
  const chromium = findChromium(env);
  return describeAccessibilityMode(chromium, enhancedContrast, rulesNotRun('jsdom', enhancedContrast).length);
}
