// @vitest-environment jsdom
// jsdom, not happy-dom: these tests read colours as a browser computes them (rgb(), not as declared).
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderUi } from '../../src/ui/testUtils';
import { appTheme } from '../../src/theme';
import { MauBar } from './MauBar';

afterEach(cleanup);

const rgb = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

describe('the MAU bar', () => {
  it('shows an empty tier as an empty grey track, not a pale full bar', () => {
    renderUi(<MauBar used={0} limit={5000} />);
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    const theme = appTheme();
    expect(getComputedStyle(bar).backgroundColor).toBe(rgb(theme.palette.grey[300]));
    // The track is not a tint of the fill colour any more.
    expect(getComputedStyle(bar).backgroundColor).not.toBe(rgb(theme.palette.primary.light));
  });
});
