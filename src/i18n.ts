import { initReactI18next } from 'react-i18next';
import { createI18n } from '../i18n';
import { clientConfig } from './clientConfig';

/** The browser's i18next instance, shared by the front door and (through ra-i18n-i18next) react-admin. */
export const i18n = createI18n(clientConfig.productName, [initReactI18next]);
