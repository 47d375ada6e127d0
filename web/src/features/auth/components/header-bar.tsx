import { useIntl } from 'react-intl';
import { LanguageMenu } from '@/components/language-menu/language-menu';
import { Logo } from '@/components/logo/logo';
import './header-bar.css';

interface HeaderBarProps {
  email: string;
  onSignOut: () => void;
}

/** The signed-in user's bar: who they are, their language and the way out. */
export function HeaderBar({ email, onSignOut }: HeaderBarProps) {
  const intl = useIntl();
  return (
    <header className="header-bar">
      <div className="header-bar__inner">
        <Logo size={30} />
        <p className="header-bar__welcome">{intl.formatMessage({ id: 'auth.welcome' }, { email })}</p>
        <LanguageMenu />
        <button type="button" className="button button--secondary" onClick={onSignOut}>
          {intl.formatMessage({ id: 'auth.signOut' })}
        </button>
      </div>
    </header>
  );
}
