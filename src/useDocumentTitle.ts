import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { clientConfig } from './clientConfig';

/** Page title: the route's title and the product, or the product alone (SPEC §2); `title` is an already translated one. */
export function useDocumentTitle(titleKey?: string, title?: string) {
  const { t } = useTranslation();
  useEffect(() => {
    const text = title ?? (titleKey ? t(titleKey) : '');
    document.title = text ? `${text} · ${clientConfig.productName}` : clientConfig.productName;
  }, [t, titleKey, title]);
}
