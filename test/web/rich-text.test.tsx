// Rich text in messages: the seed's tags (b, br, em, i, p, strong, button, link, tooltip-help) render
// through one shared set of elements; any other tag shows as plain text instead of breaking the page.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { FormattedMessage, IntlProvider, useIntl } from 'react-intl';
import { describe, expect, it, vi } from 'vitest';
import en from '@/locales/en.json';
import { guardMessages } from '@/lib/i18n/message-guard';
import { buttonFor, linkTo, RICH_TEXT_ELEMENTS, tooltipHelp } from '@/lib/i18n/rich-text';

/** formatjs's advice while rendering, kept out of the test output. */
const warnings: string[] = [];

function renderWith(messages: Record<string, string> | ReturnType<typeof guardMessages>, ui: ReactNode) {
  const user = userEvent.setup();
  const view = render(
    // formatjs advises pre-compiled messages wherever defaultRichTextElements is set; these tests give
    // text on purpose, so its advice is collected rather than printed (and the app's provider is
    // what the other tests render).
    <IntlProvider locale="en-US" defaultLocale="en-US" messages={messages} defaultRichTextElements={RICH_TEXT_ELEMENTS} onWarn={(warning) => warnings.push(warning)}>
      {ui}
    </IntlProvider>,
  );
  return { user, ...view };
}

describe('the rich-text elements', () => {
  it('render b, strong, em, i, br and p as themselves', () => {
    const { container } = renderWith(
      { 'help.intro': '<p>Read <b>bold</b>, <strong>strong</strong>, <em>stressed</em> and <i>italic</i>.<br></br>Then go on.</p>' },
      <div>
        <FormattedMessage id="help.intro" />
      </div>,
    );
    const paragraph = container.querySelector('div > p');
    expect(paragraph?.textContent).toBe('Read bold, strong, stressed and italic.Then go on.');
    expect([...(paragraph?.children ?? [])].map((element) => `${element.tagName.toLowerCase()}:${element.textContent}`)).toEqual([
      'b:bold',
      'strong:strong',
      'em:stressed',
      'i:italic',
      'br:',
    ]);
  });

  it('render link, button and tooltip-help as plain text until the code gives them what they need', () => {
    const { container } = renderWith(
      { 'help.intro': 'See <link>the guide</link>, <button>open it</button> or <tooltip-help>read this</tooltip-help>.' },
      <FormattedMessage id="help.intro" />,
    );
    expect(container.textContent).toBe('See the guide, open it or read this.');
    expect(container.querySelector('a, button')).toBeNull();
  });

  it('render link as a link, in a new tab if asked, saying so to screen readers', () => {
    renderWith(
      { 'help.intro': 'See <link>the guide</link>.' },
      <FormattedMessage id="help.intro" values={{ link: linkTo('https://example.com/guide', { newTab: true, newTabLabel: '(opens in a new tab)' }) }} />,
    );
    const link = screen.getByRole('link', { name: 'the guide (opens in a new tab)' });
    expect(link).toHaveAttribute('href', 'https://example.com/guide');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('render button as a button that runs the given action', async () => {
    const onClick = vi.fn();
    const { user } = renderWith({ 'help.intro': 'Then <button>open the help</button>.' }, <FormattedMessage id="help.intro" values={{ button: buttonFor(onClick) }} />);
    await user.click(screen.getByRole('button', { name: 'open the help' }));
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('render tooltip-help as a term described by its tooltip, hidden again with Escape', async () => {
    const { user, container } = renderWith(
      { 'help.intro': 'Enter the <tooltip-help>Org Unit ID</tooltip-help>.' },
      <FormattedMessage id="help.intro" values={{ 'tooltip-help': tooltipHelp('The number in the course address.') }} />,
    );
    const term = screen.getByRole('button', { name: 'Org Unit ID' });
    expect(term).toHaveAccessibleDescription('The number in the course address.');
    expect(screen.getByRole('tooltip', { hidden: true })).toHaveTextContent('The number in the course address.');
    await user.tab();
    await user.keyboard('{Escape}');
    expect(container.querySelector('.tooltip-help--dismissed')).not.toBeNull();
  });
});

describe('the message guard', () => {
  function Probe({ id }: { id: 'auth.signIn' | 'help.intro' }) {
    const intl = useIntl();
    const text = intl.formatMessage({ id });
    return (
      <>
        <p data-testid="shown">{text}</p>
        <p data-testid="kind">{typeof text}</p>
      </>
    );
  }

  it('shows a tag outside the rich-text set as plain text, its content kept', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const messages = guardMessages(en, { 'auth.signIn': 'Connexion <script>alert(1)</script><img>ici</img>' });
    const { container } = renderWith(messages, <Probe id="auth.signIn" />);
    expect(screen.getByTestId('shown')).toHaveTextContent('Connexion alert(1)ici');
    expect(container.querySelector('script, img')).toBeNull();
  });

  it('drops an allowed tag the English message does not have, so the message stays a plain string', () => {
    const messages = guardMessages(en, { 'auth.signIn': '<b>Connexion</b>' });
    renderWith(messages, <Probe id="auth.signIn" />);
    expect(screen.getByTestId('shown')).toHaveTextContent('Connexion');
    expect(screen.getByTestId('kind')).toHaveTextContent('string');
  });

  it('keeps an allowed tag the English message has', () => {
    const english = { 'help.intro': 'Read <b>this</b> first.' };
    const { container } = renderWith(guardMessages(english, { 'help.intro': 'Lisez <b>ceci</b> d’abord.' }), <FormattedMessage id="help.intro" />);
    expect(container.querySelector('b')).toHaveTextContent('ceci');
  });

  it('falls back to the next message in line when one does not parse or needs an unknown value', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const messages = guardMessages(
      en,
      { 'auth.signIn': 'Connexion', 'auth.signOut': 'Déconnexion' },
      { 'auth.signIn': 'Connexion {user}', 'auth.signOut': 'Quitter {' },
    );
    renderWith(
      messages,
      <>
        <FormattedMessage id="auth.signIn" />|<FormattedMessage id="auth.signOut" />|<FormattedMessage id="auth.checking" />
      </>,
    );
    expect(document.body).toHaveTextContent('Connexion|Déconnexion|Checking your sign-in…');
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
