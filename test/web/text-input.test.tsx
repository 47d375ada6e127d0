import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TextInput, type TextInputProps } from '@/components/text-input/text-input';
import { renderWithIntl } from './support/render-with-intl';

type Props = Omit<TextInputProps, 'value' | 'onChange' | 'id'> & { id?: string; initial?: string };

/** A controlled field inside a form, as the app uses it. */
function Field({ initial = '', id = 'field', ...props }: Props & { onSubmit?: () => void }) {
  const [value, setValue] = useState(initial);
  const { onSubmit, ...rest } = props;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit?.();
      }}
    >
      <TextInput id={id} value={value} onChange={setValue} {...rest} />
      <button type="button">Elsewhere</button>
    </form>
  );
}

function errorText(): string | null {
  const input = screen.getByRole(screen.queryByRole('spinbutton') ? 'spinbutton' : 'textbox');
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids.map((id) => document.getElementById(id)).find((element) => element?.id.endsWith('-error'));
  return error?.textContent ?? null;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('TextInput types and attributes', () => {
  it.each(['email', 'number', 'password', 'tel', 'text', 'search', 'url'])('keeps the supported type %s', (type) => {
    renderWithIntl(<Field label="Value" type={type} />);
    expect(screen.getByLabelText('Value')).toHaveAttribute('type', type);
  });

  it.each(['date', 'checkbox', 'color', 'bogus'])('falls back to text for %s', (type) => {
    renderWithIntl(<Field label="Value" type={type} />);
    expect(screen.getByLabelText('Value')).toHaveAttribute('type', 'text');
  });

  it('passes the constraint attributes through to the input', () => {
    renderWithIntl(<Field label="Count" type="number" required min={1} max={10} step={2} />);
    const input = screen.getByLabelText('Count');
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('min', '1');
    expect(input).toHaveAttribute('max', '10');
    expect(input).toHaveAttribute('step', '2');
  });

  it('passes length and pattern attributes through', () => {
    renderWithIntl(<Field label="Code" minLength={3} maxLength={8} pattern="[A-Z]+" />);
    const input = screen.getByLabelText('Code');
    expect(input).toHaveAttribute('minlength', '3');
    expect(input).toHaveAttribute('maxlength', '8');
    expect(input).toHaveAttribute('pattern', '[A-Z]+');
  });
});

describe('TextInput validation timing', () => {
  it('shows a missing value only after the field loses focus', async () => {
    const { user } = renderWithIntl(<Field label="Client" required />);
    const input = screen.getByLabelText('Client');
    await user.click(input);
    expect(errorText()).toBeNull();
    expect(input).not.toHaveAttribute('aria-invalid');

    await user.tab();
    expect(errorText()).toBe('Client is required.');
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });

  it('validates on change without forcing a new error into view', async () => {
    const { user } = renderWithIntl(<Field label="Name" minLength={5} />);
    const input = screen.getByLabelText('Name');
    await user.type(input, 'abc');
    expect(errorText()).toBeNull();

    await user.tab();
    expect(errorText()).toBe('Name must be at least 5 characters.');

    // Still invalid while typing: the shown message follows the value.
    await user.type(input, 'd');
    expect(errorText()).toBe('Name must be at least 5 characters.');

    // Valid: the error goes at once.
    await user.type(input, 'e');
    expect(errorText()).toBeNull();

    // Invalid again: it waits for the next blur.
    await user.type(input, '{Backspace}');
    expect(errorText()).toBeNull();
    await user.tab();
    expect(errorText()).toBe('Name must be at least 5 characters.');
  });

  it('validates on init when asked', () => {
    renderWithIntl(<Field label="Client" required validateOnInit />);
    expect(errorText()).toBe('Client is required.');
  });

  it('does not validate on init otherwise', () => {
    renderWithIntl(<Field label="Client" required />);
    expect(errorText()).toBeNull();
  });

  it('shows the error when the form asks for it', () => {
    renderWithIntl(<Field label="Client" required showError />);
    expect(errorText()).toBe('Client is required.');
  });
});

describe('TextInput messages', () => {
  it.each<[string, Props, string]>([
    ['a missing value names the label', { label: 'Org Unit ID', required: true }, 'Org Unit ID is required.'],
    ['a missing value without a label names a default', { ariaLabel: 'Search', required: true }, 'Field is required.'],
    ['too short gives the label and the minimum', { label: 'Code', minLength: 4, initial: 'ab' }, 'Code must be at least 4 characters.'],
    ['an email that is not one', { label: 'E-mail', type: 'email', initial: 'someone@' }, 'Email is not valid.'],
    ['a URL that is not one', { label: 'Site', type: 'url', initial: 'school.brightspace.com' }, 'URL is not valid.'],
    ['a pattern mismatch shows the supplied text', { label: 'Id', pattern: '[0-9]+', patternFailureText: 'Digits only.', initial: '12a' }, 'Digits only.'],
    ['a pattern mismatch without text is a generic error', { label: 'Id', pattern: '[0-9]+', initial: 'x' }, 'Id is invalid.'],
    ['a number over the maximum shows the maximum', { label: 'Count', type: 'number', max: 1000, initial: '1001' }, 'Number must be less than or equal to 1,000.'],
    ['a number under the minimum shows the minimum', { label: 'Count', type: 'number', min: 2, initial: '1' }, 'Number must be greater than or equal to 2.'],
    ['a number off its step is a generic error', { label: 'Count', type: 'number', step: 5, initial: '7' }, 'Count is invalid.'],
    ['text where a number belongs is a generic error', { label: 'Count', type: 'number', initial: '1e' }, 'Count is invalid.'],
    ['too long is a generic error', { label: 'Code', maxLength: 2, initial: 'abc' }, 'Code is invalid.'],
    ['the first failing rule wins', { label: 'Site', type: 'url', minLength: 30, initial: 'nope' }, 'URL is not valid.'],
  ])('%s', (_name, props, message) => {
    renderWithIntl(<Field {...props} validateOnInit />);
    expect(errorText()).toBe(message);
  });

  it.each<[string, Props]>([
    ['an empty optional field with a minimum length', { label: 'Code', minLength: 4 }],
    ['a valid email', { label: 'E-mail', type: 'email', initial: 'qa@example.ca' }],
    ['a valid URL', { label: 'Site', type: 'url', initial: 'https://school.brightspace.com' }],
    ['a number on its step from the minimum', { label: 'Count', type: 'number', min: 1, step: 2, initial: '5' }],
    ['a decimal step', { label: 'Rate', type: 'number', step: 0.1, initial: '0.3' }],
    ['a value matching the pattern', { label: 'Id', pattern: '[0-9]+', initial: '6606' }],
  ])('accepts %s', (_name, props) => {
    renderWithIntl(<Field {...props} validateOnInit />);
    expect(errorText()).toBeNull();
  });
});

describe('TextInput submit', () => {
  it('submits its form on Enter', async () => {
    const onSubmit = vi.fn();
    const { user } = renderWithIntl(<Field label="Client" onSubmit={onSubmit} />);
    await user.type(screen.getByLabelText('Client'), 'Acme{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('blocks Enter when prevent-submit is set', async () => {
    const onSubmit = vi.fn();
    const { user } = renderWithIntl(<Field label="Client" preventSubmit onSubmit={onSubmit} />);
    await user.type(screen.getByLabelText('Client'), 'Acme{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Client')).toHaveValue('Acme');
  });
});

describe('TextInput labelling', () => {
  it('is named by its label, or by aria-label when it has none', () => {
    renderWithIntl(
      <>
        <Field id="a" label="Client" />
        <Field id="b" ariaLabel="Search courses" />
      </>,
    );
    expect(screen.getByRole('textbox', { name: 'Client' })).toHaveAttribute('id', 'a');
    expect(screen.getByRole('textbox', { name: 'Search courses' })).toHaveAttribute('id', 'b');
  });

  it('keeps a hidden label for assistive technology', () => {
    renderWithIntl(<Field label="Client" labelHidden />);
    expect(screen.getByRole('textbox', { name: 'Client' })).toBeInTheDocument();
    expect(screen.getByText('Client')).toHaveClass('visually-hidden');
  });

  it('reports a missing label after 3 seconds, not before', () => {
    vi.useFakeTimers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithIntl(<Field />);
    act(() => vi.advanceTimersByTime(2999));
    expect(error).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(error).toHaveBeenCalledWith(expect.stringContaining('"label" is required'));
  });

  it('does not report a field named by aria-label', () => {
    vi.useFakeTimers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithIntl(<Field ariaLabel="Search" />);
    act(() => vi.advanceTimersByTime(5000));
    expect(error).not.toHaveBeenCalled();
  });

  it('accepts a labelled-by target that appears within 3 seconds', () => {
    vi.useFakeTimers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithIntl(<Field labelledBy="late-label" />);
    act(() => vi.advanceTimersByTime(1200));
    const label = document.createElement('span');
    label.id = 'late-label';
    label.textContent = 'Late label';
    document.body.append(label);
    act(() => vi.advanceTimersByTime(5000));
    expect(error).not.toHaveBeenCalled();
    expect(screen.getByRole('textbox', { name: 'Late label' })).toBeInTheDocument();
    label.remove();
  });

  it('reports a labelled-by target that never appears', () => {
    vi.useFakeTimers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithIntl(<Field labelledBy="nowhere" />);
    act(() => vi.advanceTimersByTime(2900));
    expect(error).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(200));
    expect(error).toHaveBeenCalledWith(expect.stringContaining('"labelledBy" names "nowhere"'));
  });
});

describe('TextInput units', () => {
  it('requires a unit label for a unit other than %', () => {
    vi.useFakeTimers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithIntl(<Field label="Width" unit="px" />);
    act(() => vi.advanceTimersByTime(3000));
    expect(error).toHaveBeenCalledWith(expect.stringContaining('"unitLabel" is required'));
  });

  it('needs no unit label for %', () => {
    vi.useFakeTimers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithIntl(<Field label="Share" unit="%" />);
    act(() => vi.advanceTimersByTime(3000));
    expect(error).not.toHaveBeenCalled();
    expect(screen.getByText('%')).toHaveAttribute('aria-hidden', 'true');
  });

  it('describes the field with its unit label', () => {
    renderWithIntl(<Field label="Width" unit="px" unitLabel="pixels" />);
    expect(screen.getByRole('textbox', { name: 'Width' })).toHaveAccessibleDescription('pixels');
  });
});

describe('TextInput description', () => {
  it('links the hint and the error to the field', () => {
    renderWithIntl(<Field label="Client" description="As shown on the report." required validateOnInit />);
    expect(screen.getByRole('textbox', { name: 'Client' })).toHaveAccessibleDescription('As shown on the report. Client is required.');
  });

  it('changes the value through onChange', () => {
    renderWithIntl(<Field label="Client" />);
    fireEvent.change(screen.getByLabelText('Client'), { target: { value: 'Acme' } });
    expect(screen.getByLabelText('Client')).toHaveValue('Acme');
  });
});
