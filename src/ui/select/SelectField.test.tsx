// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en, renderUi } from '../testUtils';
import { SelectField, type SelectOption } from './SelectField';
import { atMaximum, countProblem, SELECT_DEFAULT_WIDTH, SELECT_LIST_HEIGHT } from './selectRules';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const regions: SelectOption[] = ['Iowa', 'Frankfurt', 'Tokyo', 'Sydney'].map((label) => ({ value: label.toLowerCase(), label }));

function Multi({ min, max, initial = [] }: { min?: number; max?: number; initial?: string[] }) {
  const [value, setValue] = useState<string[]>(initial);
  return <SelectField label="Regions" multiple options={regions} value={value} onChange={setValue} min={min} max={max} />;
}

describe('select rules', () => {
  it('has the spec sizes', () => {
    expect(SELECT_DEFAULT_WIDTH).toBe(400);
    expect(SELECT_LIST_HEIGHT).toBe(300);
  });

  it('checks the item count against the minimum and maximum', () => {
    expect(countProblem(0, 1, 3)).toEqual({ kind: 'min', limit: 1 });
    expect(countProblem(1, 1, 3)).toBeNull();
    expect(countProblem(3, 1, 3)).toBeNull();
    expect(countProblem(4, 1, 3)).toEqual({ kind: 'max', limit: 3 });
    expect(countProblem(9)).toBeNull();
    expect(atMaximum(3, 3)).toBe(true);
    expect(atMaximum(2, 3)).toBe(false);
    expect(atMaximum(99)).toBe(false);
  });
});

describe('SelectField', () => {
  it('picks one option in single mode', () => {
    const onChange = vi.fn();
    renderUi(<SelectField label="Region" options={regions} value={null} onChange={onChange} />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Region' }));
    fireEvent.click(screen.getByRole('option', { name: 'Tokyo' }));
    expect(onChange).toHaveBeenCalledWith('tokyo');
  });

  it('shows the minimum message once touched, and stops at the maximum', () => {
    renderUi(<Multi min={2} max={3} initial={['iowa']} />);
    const box = screen.getByRole('combobox', { name: 'Regions' });
    expect(screen.queryByText(en('widgets.select.min', { count: 2 }))).toBeNull();
    fireEvent.focus(box);
    fireEvent.blur(box);
    expect(screen.getByText(en('widgets.select.min', { count: 2 }))).toBeTruthy();
    fireEvent.mouseDown(box);
    fireEvent.click(screen.getByRole('option', { name: 'Tokyo' }));
    fireEvent.click(screen.getByRole('option', { name: 'Sydney' }));
    expect(screen.queryByText(en('widgets.select.min', { count: 2 }))).toBeNull();
    expect(screen.getByRole('option', { name: 'Frankfurt' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('option', { name: 'Tokyo' }).getAttribute('aria-disabled')).not.toBe('true');
  });

  it('shows the maximum message when given too many', () => {
    renderUi(<Multi max={1} initial={['iowa', 'tokyo']} />);
    const box = screen.getByRole('combobox', { name: 'Regions' });
    fireEvent.focus(box);
    fireEvent.blur(box);
    expect(screen.getByText(en('widgets.select.max', { count: 1 }))).toBeTruthy();
  });

  it('searches remotely 500 ms after the last keystroke, ignoring stale answers', async () => {
    vi.useFakeTimers();
    const answers: Record<string, SelectOption[]> = {
      '': regions,
      t: [{ value: 'tokyo', label: 'Tokyo' }],
      to: [{ value: 'tokyo', label: 'Tokyo' }],
    };
    const loadOptions = vi.fn((search: string) => Promise.resolve(answers[search] ?? []));
    renderUi(<SelectField label="Region" value={null} onChange={() => undefined} loadOptions={loadOptions} />);
    const box = screen.getByRole('combobox', { name: 'Region' });
    fireEvent.mouseDown(box);
    expect(loadOptions).toHaveBeenCalledWith('');
    await act(() => Promise.resolve());
    expect(screen.getAllByRole('option')).toHaveLength(4);
    fireEvent.change(box, { target: { value: 't' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(box, { target: { value: 'to' } });
    act(() => vi.advanceTimersByTime(499));
    expect(loadOptions).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(1));
    expect(loadOptions).toHaveBeenCalledTimes(2);
    expect(loadOptions).toHaveBeenLastCalledWith('to');
    await act(() => Promise.resolve());
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Tokyo']);
  });

  it('keeps a newer answer when an older one arrives late', async () => {
    vi.useFakeTimers();
    const resolvers: Record<string, (o: SelectOption[]) => void> = {};
    const loadOptions = (search: string) => new Promise<SelectOption[]>((resolve) => (resolvers[search] = resolve));
    renderUi(<SelectField label="Region" value={null} onChange={() => undefined} loadOptions={loadOptions} />);
    const box = screen.getByRole('combobox', { name: 'Region' });
    fireEvent.mouseDown(box);
    fireEvent.change(box, { target: { value: 'sy' } });
    act(() => vi.advanceTimersByTime(500));
    await act(async () => resolvers.sy?.([{ value: 'sydney', label: 'Sydney' }]));
    await act(async () => resolvers['']?.(regions));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Sydney']);
  });
});
