import { useCallback, useEffect, useState } from 'react';
import { getCompanyPlans, getPublicConfigurables, getPublicPlans } from '../../dataProvider/catalogue';
import { DEFAULTS } from '../../src/domain/constants';
import { wizardOptions, type WizardOptions } from './options';

/**
 * The catalogue the wizard offers; `failed` names SPEC §8's message for what could not load. With
 * a company (signed in), its plans: its plan group's, or the public ones when it has no group.
 */
export function useWizardOptions(companyId?: string | null): { options: WizardOptions | null; failed: 'errors.plansLoad' | 'errors.configurablesLoad' | null; retry: () => void } {
  const [options, setOptions] = useState<WizardOptions | null>(null);
  const [failed, setFailed] = useState<'errors.plansLoad' | 'errors.configurablesLoad' | null>(null);
  const load = useCallback(() => {
    const plans = (companyId ? getCompanyPlans(companyId) : getPublicPlans()).catch(() => Promise.reject(new Error('errors.plansLoad')));
    const conf = getPublicConfigurables(DEFAULTS.providerCode).catch(() => Promise.reject(new Error('errors.configurablesLoad')));
    Promise.all([plans, conf]).then(
      ([p, c]) => setOptions(wizardOptions(p, c)),
      (e: Error) => setFailed(e.message === 'errors.plansLoad' ? 'errors.plansLoad' : 'errors.configurablesLoad'),
    );
  }, [companyId]);
  useEffect(load, [load]);
  const retry = useCallback(() => {
    setFailed(null);
    load();
  }, [load]);
  return { options, failed, retry };
}
