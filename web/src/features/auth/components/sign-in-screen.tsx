import { useIntl } from 'react-intl';
import { LanguageMenu } from '@/components/language-menu/language-menu';
import { Logo } from '@/components/logo/logo';
import { StatusBanner } from '@/components/status-banner/status-banner';
import './sign-in-screen.css';

interface SignInScreenProps {
  signInFailed: boolean;
  onSignIn: () => void;
}

/** What anyone not signed in sees: the logo, the way to the hosted login, and the language menu. */
export function SignInScreen({ signInFailed, onSignIn }: SignInScreenProps) {
  const intl = useIntl();
  return (
    <main className="centered-message">
      <div className="sign-in-screen__language">
        <LanguageMenu />
      </div>
      <div className="card sign-in-screen__card">
        <Logo size={72} />
        <h1 className="sign-in-screen__title">{intl.formatMessage({ id: 'app.title' })}</h1>
        <p className="sign-in-screen__intro">{intl.formatMessage({ id: 'auth.signedOutIntro' })}</p>
        {signInFailed && (
          <StatusBanner tone="error">
            <p>{intl.formatMessage({ id: 'auth.signInFailed' })}</p>
          </StatusBanner>
        )}
        <button type="button" className="button button--primary button--large" onClick={onSignIn}>
          {intl.formatMessage({ id: 'auth.signIn' })}
        </button>
      </div>
    </main>
  );
}
