import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { getConfigurables, getCompanyPlans } from '../../dataProvider/catalogue';
import { DEFAULTS } from '../../src/domain/constants';
import { showToast } from '../../src/ui/toast/toastStore';

/**
 * SPEC §4 Loading data: configurables and plans are loaded on entering the dashboard, the
 * deployments list and a deployment's page; a failure says which (SPEC §8). The answers are
 * cached by the browser (the routes send cache headers), so re-entering is cheap.
 */
export function useCatalogueOnEnter(companyId: string | null) {
  const { t } = useTranslation();
  useEffect(() => {
    let live = true;
    getConfigurables(DEFAULTS.providerCode).catch(() => live && showToast({ text: t('errors.configurablesLoad'), variant: 'destructive' }));
    if (companyId) getCompanyPlans(companyId).catch(() => live && showToast({ text: t('errors.plansLoad'), variant: 'destructive' }));
    return () => {
      live = false;
    };
  }, [companyId, t]);
}
