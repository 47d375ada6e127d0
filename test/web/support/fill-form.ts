import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

export const VALID_FIELDS = {
  'Brightspace Username': 'qa.tester',
  'Brightspace Password': ' s3cret pass ',
  'Client Site URL': 'https://school.brightspace.com',
  'Org Unit ID': '6606',
  Client: 'Acme College',
} as const;

export async function fillForm(user: UserEvent, values: Partial<Record<keyof typeof VALID_FIELDS, string>> = VALID_FIELDS) {
  for (const [label, value] of Object.entries(values)) {
    const input = screen.getByLabelText(label);
    await user.clear(input);
    if (value !== '') await user.type(input, value);
  }
}
