import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { clientConfig } from './clientConfig';

/** Page title: the route's title and the product, or the product alone (SPEC §2). */
export function useDocumentTitle(titleKey?: string) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = titleKey ? `${t(titleKey)} · ${clientConfig.productName}` : clientConfig.productName;
  }, [t, titleKey]);
}
