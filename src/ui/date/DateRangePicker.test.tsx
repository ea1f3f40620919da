// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en, renderUi } from '../testUtils';
import type { DateRangeValue } from './dateRangeRules';
import { DateRangePicker, type DateRangePickerProps } from './DateRangePicker';

const NOW = dayjs('2026-11-21T15:30:00').valueOf();

function renderPicker(props: Partial<DateRangePickerProps> = {}) {
  const onChange = vi.fn<(v: DateRangeValue) => void>();
  renderUi(<DateRangePicker label="Period" value="30days" onChange={onChange} {...props} />);
  return onChange;
}
const open = () => fireEvent.click(screen.getByRole('button', { name: /^Period:/ }));
const dialog = () => screen.getByRole('dialog', { name: 'Period' });
/** What a date field shows, e.g. '01/03/2026'. */
const fieldText = (name: string) =>
  within(screen.getByRole('group', { name }))
    .getAllByRole('spinbutton')
    .map((s) => s.textContent)
    .join('/');

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('DateRangePicker', () => {
  it('names itself with the label and the current value', () => {
    renderPicker();
    expect(screen.getByRole('button', { name: `Period: ${en('widgets.dateRange.shortcuts.30days')}` })).toBeTruthy();
  });

  it('applies a shortcut from the first tab', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const onChange = renderPicker();
    open();
    expect(screen.getByRole('tab', { name: en('widgets.dateRange.shortcutsTab') }).getAttribute('aria-selected')).toBe('true');
    const labels = within(dialog())
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(labels).toEqual(['yesterday', 'today', '7days', '30days', '60days', 'thisMonth', 'thisYear', 'allTime'].map((k) => en(`widgets.dateRange.shortcuts.${k}`)));
    fireEvent.click(within(dialog()).getByRole('button', { name: en('widgets.dateRange.shortcuts.yesterday') }));
    expect(onChange).toHaveBeenCalledWith('yesterday');
  });

  it('warns for 3 seconds with the allowed length when a range is too long, and keeps the value', () => {
    vi.useFakeTimers({ now: NOW });
    const onChange = renderPicker({ maxRangeDays: 30 });
    open();
    fireEvent.click(within(dialog()).getByRole('button', { name: en('widgets.dateRange.shortcuts.60days') }));
    const text = en('widgets.dateRange.rangeLimit', { count: 30 });
    expect(text).toContain('30 days');
    expect(screen.getByRole('alert').textContent).toBe(text);
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.queryByText(text)).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText(text)).toBeNull();
    fireEvent.click(within(dialog()).getByRole('button', { name: en('widgets.dateRange.shortcuts.30days') }));
    expect(onChange).toHaveBeenCalledWith('30days');
  });

  it('reverts invalid typed input on blur to the last valid date', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const user = userEvent.setup();
    renderPicker({ value: [dayjs('2026-03-01').valueOf(), dayjs('2026-03-10').endOf('day').valueOf()] });
    open();
    expect(screen.getByRole('tab', { name: en('widgets.dateRange.customTab') }).getAttribute('aria-selected')).toBe('true');
    expect(fieldText(en('widgets.dateRange.from'))).toBe('01/03/2026');
    const [dayOfFrom] = within(screen.getByRole('group', { name: en('widgets.dateRange.from') })).getAllByRole('spinbutton');
    await user.click(dayOfFrom as HTMLElement);
    await user.keyboard('31122009');
    expect(fieldText(en('widgets.dateRange.from'))).toBe('31/12/2009');
    await user.click(screen.getByRole('button', { name: en('widgets.dateRange.cancel') }).parentElement as HTMLElement);
    expect(fieldText(en('widgets.dateRange.from'))).toBe('01/03/2026');
    // Tomorrow is past the end of today: reverted too.
    const [dayOfTo] = within(screen.getByRole('group', { name: en('widgets.dateRange.to') })).getAllByRole('spinbutton');
    await user.click(dayOfTo as HTMLElement);
    await user.keyboard('22112026');
    await user.click(screen.getByRole('button', { name: en('widgets.dateRange.cancel') }).parentElement as HTMLElement);
    expect(fieldText(en('widgets.dateRange.to'))).toBe('10/03/2026');
  });

  it('accepts a typed range only when the start is not after the end', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const user = userEvent.setup();
    const onChange = renderPicker({ value: [dayjs('2026-03-01').valueOf(), dayjs('2026-03-10').endOf('day').valueOf()] });
    open();
    const apply = screen.getByRole('button', { name: en('widgets.dateRange.apply') });
    const [dayOfFrom] = within(screen.getByRole('group', { name: en('widgets.dateRange.from') })).getAllByRole('spinbutton');
    await user.click(dayOfFrom as HTMLElement);
    await user.keyboard('20032026');
    expect(apply.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(en('widgets.dateRange.startAfterEnd'))).toBeTruthy();
    await user.click(dayOfFrom as HTMLElement);
    await user.keyboard('05032026');
    expect(apply.hasAttribute('disabled')).toBe(false);
    await user.click(apply);
    expect(onChange).toHaveBeenCalledWith([dayjs('2026-03-05').valueOf(), dayjs('2026-03-10').endOf('day').valueOf()]);
  });

  it("offers 'in the last' units by table level and applies a number-plus-unit value", () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const onChange = renderPicker({ value: '3months', dayLevel: false });
    open();
    expect(screen.getByRole('button', { name: en('widgets.dateRange.modes.inTheLast'), pressed: true })).toBeTruthy();
    const unit = screen.getByRole('combobox', { name: en('widgets.dateRange.unit') });
    expect(within(unit).getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual(['months']);
    fireEvent.change(screen.getByRole('spinbutton', { name: en('widgets.dateRange.count') }), { target: { value: '6' } });
    fireEvent.click(screen.getByRole('button', { name: en('widgets.dateRange.apply') }));
    expect(onChange).toHaveBeenCalledWith('6months');
    cleanup();
    renderPicker({ value: '2weeks' });
    open();
    expect(within(screen.getByRole('combobox', { name: en('widgets.dateRange.unit') })).getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual(['days', 'weeks', 'months']);
  });

  it('picks a single day in the since and on modes', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const onChange = renderPicker({ value: { on: dayjs('2026-11-05').valueOf() } });
    open();
    expect(screen.getByRole('button', { name: en('widgets.dateRange.modes.onm'), pressed: true })).toBeTruthy();
    fireEvent.click(screen.getByRole('gridcell', { name: '12' }));
    fireEvent.click(screen.getByRole('button', { name: en('widgets.dateRange.apply') }));
    expect(onChange).toHaveBeenCalledWith({ on: dayjs('2026-11-12').valueOf() });
    fireEvent.click(screen.getByRole('button', { name: /^Period:/ }));
    fireEvent.click(screen.getByRole('button', { name: en('widgets.dateRange.modes.since') }));
    fireEvent.click(screen.getByRole('button', { name: en('widgets.dateRange.apply') }));
    expect(onChange).toHaveBeenLastCalledWith({ since: dayjs('2026-11-05').valueOf() });
  });

  it('has no shortcut tab for month pickers and gives whole months', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const onChange = renderPicker({ type: 'month', value: [dayjs('2026-02-01').valueOf(), dayjs('2026-02-28').endOf('day').valueOf()] });
    expect(screen.getByRole('button', { name: 'Period: Feb 2026' })).toBeTruthy();
    open();
    expect(screen.queryByRole('tab')).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'April' }));
    fireEvent.click(screen.getByRole('button', { name: en('widgets.dateRange.apply') }));
    expect(onChange).toHaveBeenCalledWith([dayjs('2026-04-01').valueOf(), dayjs('2026-04-30').endOf('day').valueOf()]);
  });
});
