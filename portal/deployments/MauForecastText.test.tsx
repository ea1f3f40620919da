// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { forecastHasData, type MauForecast } from '../../src/domain/usage/forecast';
import { mauSharePercent } from '../../src/domain/usage/mauRule';
import '../../src/serversI18n';
import { renderUi } from '../../src/ui/testUtils';
import { MauForecastText, MauNotice } from './MauForecastText';

afterEach(cleanup);

const forecast = (patch: Partial<MauForecast> = {}): MauForecast => ({ used: 0, forecast: 0, low: 0, high: 0, basis: 'trend', days: 1, periods: 0, runOutOn: null, periodEnd: '2026-11-30', ...patch });

describe('the forecast in words', () => {
  it('with nothing counted yet says "Not enough data yet", not "Forecast 0 (between 0 and 0)"', () => {
    renderUi(<MauForecastText forecast={forecast()} limit={5000} />);
    expect(screen.getByTestId('mau-forecast').textContent).toBe('Not enough data yet');
    expect(screen.queryByText(/Forecast 0|between 0 and 0/)).toBeNull();
    expect(screen.queryByText(/From the pace of new users/)).toBeNull();
  });

  it('with users counted shows the forecast and its range', () => {
    renderUi(<MauForecastText forecast={forecast({ used: 1200, forecast: 1500, low: 1400, high: 1650, days: 5 })} limit={5000} />);
    expect(screen.getByTestId('mau-forecast').textContent).toBe('Forecast 1,500 by Nov 30, 2026 (between 1,400 and 1,650)');
    expect(forecastHasData(forecast({ used: 3 }))).toBe(true);
    expect(forecastHasData(forecast())).toBe(false);
  });
});

describe('the notice past the tier', () => {
  it('says the share used, 106%, not the 100% threshold it passed', () => {
    renderUi(<MauNotice used={5300} limit={5000} forecast={null} />);
    expect(screen.getByTestId('mau-notice').textContent).toMatch(/^This server has used 106% of its tier/);
  });

  it('between the thresholds, the share used too (84%, not 80%); never rounded up to a threshold', () => {
    renderUi(<MauNotice used={4200} limit={5000} forecast={null} />);
    expect(screen.getByTestId('mau-notice').textContent).toMatch(/^This server has used 84% of its tier/);
    expect(mauSharePercent(4999, 5000)).toBe(99);
    expect(mauSharePercent(5300, 5000)).toBe(106);
    expect(mauSharePercent(10, 0)).toBe(0);
  });
});
