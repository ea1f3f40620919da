import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { CoreAdminContext, testDataProvider } from 'react-admin';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import '../src/appI18n';
import { i18n } from '../src/i18n';
import './adminI18n';

/** Renders an admin page part inside react-admin, with `recordAction` as the data provider's action method (tests only). */
export function renderInAdmin(ui: ReactElement, recordAction: (...args: never[]) => Promise<{ data: unknown }>) {
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <CoreAdminContext dataProvider={{ ...testDataProvider(), recordAction } as never}>{ui}</CoreAdminContext>
      </MemoryRouter>
    </I18nextProvider>,
  );
}
