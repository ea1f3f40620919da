// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en, renderUi } from '../testUtils';
import { emptyCells, fillCells, isComplete } from './codeCells';
import { CodeInput } from './CodeInput';
import { InitialsAvatar, initials } from './InitialsAvatar';
import { formatMetric, MetricCard } from './MetricCard';
import { POPOVER_SIZES, SizedPopover } from './SizedPopover';

afterEach(cleanup);

describe('metric cards', () => {
  it('abbreviate with K and M from 10000 on', () => {
    expect(formatMetric(9999)).toBe('9,999');
    expect(formatMetric(10_000)).toBe('10K');
    expect(formatMetric(12_345)).toBe('12.3K');
    expect(formatMetric(2_500_000)).toBe('2.5M');
    expect(formatMetric(-15_000)).toBe('-15K');
    expect(formatMetric(0)).toBe('0');
  });

  it('show a sum of values with its cents: 54.97, not 55', () => {
    expect(formatMetric(54.97)).toBe('54.97');
    expect(formatMetric(1234.5)).toBe('1,234.5');
    expect(formatMetric(0.004)).toBe('0');
    renderUi(<MetricCard label="Sum" value={54.97} />);
    const card = screen.getByRole('region', { name: 'Sum' });
    expect(card.textContent).toBe('Sum54.97');
  });

  it('keep the exact number for assistive tech and as a tooltip', () => {
    renderUi(<MetricCard label="Monthly active users" value={123_456} />);
    const short = screen.getByText('123.5K');
    expect(short.getAttribute('aria-hidden')).toBe('true');
    expect(short.parentElement?.getAttribute('title')).toBe('123,456');
    expect(screen.getByRole('region', { name: 'Monthly active users' }).textContent).toContain('123,456');
  });
});

describe('avatars', () => {
  it('show 2 initials', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('  ada   king  lovelace ')).toBe('AL');
    expect(initials('ada')).toBe('AD');
    expect(initials('Ö')).toBe('Ö');
    expect(initials('Émile Zola')).toBe('ÉZ');
    expect(initials('')).toBe('');
    renderUi(<InitialsAvatar name="Grace Hopper" />);
    expect(screen.getByRole('img', { name: 'Grace Hopper' }).textContent).toBe('GH');
  });
});

describe('popovers', () => {
  it('come in the spec sizes', () => {
    expect(Object.keys(POPOVER_SIZES)).toEqual(['small', 'medium', 'auto', 'small-chart', 'medium-chart', 'auto-chart']);
    const anchor = document.createElement('button');
    document.body.append(anchor);
    renderUi(
      <SizedPopover open anchorEl={anchor} size="small-chart" label="Chart details">
        content
      </SizedPopover>,
    );
    const paper = screen.getByRole('dialog', { name: 'Chart details' });
    expect(getComputedStyle(paper).width).toBe('360px');
    anchor.remove();
  });
});

describe('code cells', () => {
  it('fill from a cell on with allowed characters only', () => {
    expect(fillCells(emptyCells(5), 0, '12a34')).toEqual({ cells: ['1', '2', '3', '4', ''], focus: 4 });
    expect(fillCells(['1', '', '', '', ''], 1, '98765')).toEqual({ cells: ['1', '9', '8', '7', '6'], focus: 4 });
    expect(fillCells(emptyCells(5), 2, 'x')).toEqual({ cells: emptyCells(5), focus: 2 });
    expect(isComplete(['1', '2', '3', '4', '5'])).toBe(true);
    expect(isComplete(['1', '2', '', '4', '5'])).toBe(false);
  });
});

describe('CodeInput', () => {
  const cell = (i: number) => screen.getByRole('textbox', { name: en('widgets.code.cell', { index: i, length: 5 }) }) as HTMLInputElement;

  it('has 5 labelled cells, advances while typing and completes when full', () => {
    const onComplete = vi.fn();
    renderUi(<CodeInput label="Verification code" onComplete={onComplete} />);
    expect(screen.getByRole('group', { name: 'Verification code' })).toBeTruthy();
    expect(screen.getAllByRole('textbox')).toHaveLength(5);
    cell(1).focus();
    for (const [i, d] of ['4', '8', '1', '5'].entries()) {
      fireEvent.change(cell(i + 1), { target: { value: d } });
      expect(document.activeElement).toBe(cell(i + 2));
    }
    fireEvent.change(cell(5), { target: { value: 'x' } });
    expect(cell(5).value).toBe('');
    expect(onComplete).not.toHaveBeenCalled();
    fireEvent.change(cell(5), { target: { value: '9' } });
    expect(onComplete).toHaveBeenCalledWith('48159');
    expect(onComplete).toHaveBeenCalledTimes(1);
  });

  it('fills from a paste and goes back on Backspace', () => {
    const onComplete = vi.fn();
    const onChange = vi.fn();
    renderUi(<CodeInput label="Code" onComplete={onComplete} onChange={onChange} />);
    fireEvent.paste(cell(1), { clipboardData: { getData: () => ' 12-34 ' } });
    expect([1, 2, 3, 4, 5].map((i) => cell(i).value)).toEqual(['1', '2', '3', '4', '']);
    expect(document.activeElement).toBe(cell(5));
    fireEvent.keyDown(cell(5), { key: 'Backspace' });
    expect(cell(4).value).toBe('');
    expect(document.activeElement).toBe(cell(4));
    expect(onChange).toHaveBeenLastCalledWith('123');
    fireEvent.paste(cell(4), { clipboardData: { getData: () => '45' } });
    expect(onComplete).toHaveBeenCalledWith('12345');
  });

  it('replaces the digit of a filled cell', () => {
    renderUi(<CodeInput label="Code" onComplete={() => undefined} />);
    fireEvent.change(cell(1), { target: { value: '3' } });
    fireEvent.change(cell(1), { target: { value: '37' } });
    expect(cell(1).value).toBe('7');
    expect(cell(2).value).toBe('');
  });
});
