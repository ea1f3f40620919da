// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderUi } from '../testUtils';
import { PlainTextField } from './PlainTextField';

afterEach(cleanup);

function Harness({ error }: { error?: string | null }) {
  const [value, setValue] = useState('My Server');
  return <PlainTextField label="Server name" value={value} onChange={setValue} error={error} maxLength={64} />;
}

describe('PlainTextField', () => {
  it('is found by its label, shows what is typed and keeps the length limit', () => {
    renderUi(<Harness />);
    const input = screen.getByLabelText('Server name');
    expect(input).toHaveProperty('value', 'My Server');
    fireEvent.change(input, { target: { value: 'Another name' } });
    expect(screen.getByLabelText('Server name')).toHaveProperty('value', 'Another name');
    expect(input.getAttribute('maxlength')).toBe('64');
    expect(input.getAttribute('aria-invalid')).toBe('false');
  });

  it('marks the field invalid and describes it with the error under it', () => {
    renderUi(<Harness error="Give the server a name." />);
    const input = screen.getByLabelText('Server name');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = document.getElementById(input.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('Give the server a name.');
  });
});
