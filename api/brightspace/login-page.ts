// Reads Brightspace's login page: is there a local-account form, and does the site offer (or only
// offer) single sign-on through an identity provider?
import { DomUtils, parseDocument } from 'htmlparser2';

export interface LoginPage {
  /** A form with a password field: local Brightspace accounts can sign in here. */
  hasPasswordForm: boolean;
  /** The site shows an institution sign-in button (Brightspace marks it `d2l-button-sso`). */
  hasSsoButton: boolean;
  /** Name of the user-name field (most tenants use `userName`). */
  userNameField: string;
  passwordField: string;
  /** Hidden fields of the login form, sent back as they are. */
  hiddenFields: Record<string, string>;
}

const USER_NAME_FIELDS = ['userName', 'username', 'web_username', 'UserName'];

export function readLoginPage(html: string): LoginPage {
  const document = parseDocument(html, { lowerCaseAttributeNames: true });
  const inputs = DomUtils.getElementsByTagName('input', document);
  const password = inputs.find((input) => (input.attribs.type ?? '').toLowerCase() === 'password');
  let form = password?.parent ?? null;
  while (form !== null && !('name' in form && form.name === 'form')) form = form.parent;
  const formInputs = form !== null ? DomUtils.getElementsByTagName('input', form) : inputs;
  const userName = formInputs.find((input) => USER_NAME_FIELDS.includes(input.attribs.name ?? ''))
    ?? formInputs.find((input) => ['text', 'email', ''].includes((input.attribs.type ?? '').toLowerCase()) && input.attribs.name);
  const hiddenFields: Record<string, string> = {};
  for (const input of formInputs) {
    const name = input.attribs.name;
    if (name && (input.attribs.type ?? '').toLowerCase() === 'hidden') hiddenFields[name] = input.attribs.value ?? '';
  }
  return {
    hasPasswordForm: password !== undefined,
    hasSsoButton: /d2l-button-sso/.test(html) || /\/d2l\/lp\/auth\/saml\//i.test(html),
    userNameField: userName?.attribs.name ?? 'userName',
    passwordField: password?.attribs.name ?? 'password',
    hiddenFields,
  };
}
