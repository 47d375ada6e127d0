// The app's entry: load and check the runtime config, set up sign-in, then show the page. There is
// one catch-all route: whatever the path, the same page renders.
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { Spinner } from '@/components/spinner/spinner';
import { configureAmplify } from '@/lib/amplify';
import { loadRuntimeConfig, setRuntimeConfig, type ConfigResult } from '@/lib/runtime-config';
import { AppProvider } from '@/app/provider';
import { ConfigErrorPage } from '@/app/config-error-page';
import { CtpoPage } from '@/app/ctpo-page';

async function startApp(): Promise<ConfigResult> {
  const result = await loadRuntimeConfig();
  if (result.ok) {
    setRuntimeConfig(result.config);
    // Amplify completes a returning sign-in as soon as it is configured, so this comes before any page.
    configureAmplify(result.config);
  }
  return result;
}

function AppContent({ start }: { start: ConfigResult | null }) {
  const intl = useIntl();

  // index.html carries the English title; this keeps it in the user's language.
  useEffect(() => {
    document.title = intl.formatMessage({ id: 'app.title' });
  }, [intl]);

  if (!start) {
    return (
      <main className="centered-message">
        <Spinner label={intl.formatMessage({ id: 'app.loading' })} />
      </main>
    );
  }
  if (!start.ok) return <ConfigErrorPage problems={start.problems} />;
  return <CtpoPage config={start.config} />;
}

export function App() {
  const [start, setStart] = useState<ConfigResult | null>(null);

  // Loaded above the language provider: config.json names the fallback language and the message
  // overrides, while the spinner below already speaks the user's language.
  useEffect(() => {
    let active = true;
    void startApp().then((result) => {
      if (active) setStart(result);
    });
    return () => {
      active = false;
    };
  }, []);

  return (
    <AppProvider i18n={start?.ok ? start.config.i18n : undefined}>
      <AppContent start={start} />
    </AppProvider>
  );
}
