import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { CertificateState as State, ServerCertificate } from '../../domain/deployments/edge';
import { shortDate } from './status';

const COLOR = { issued: 'success', expired: 'error', none: 'info', plain_http: 'default', no_edge: 'default', unreachable: 'warning' } as const satisfies Record<State, string>;

/**
 * The certificate the edge really serves for the server's address (a TLS handshake with it, not
 * the wish stored with the server): who issued it and until when, or why there is none.
 * `undefined` while the first answer is on its way. Rendered inside the panel's row of chips.
 */
export function CertificateState({ certificate, verified }: { certificate: ServerCertificate | undefined; verified: boolean }) {
  const { t } = useTranslation();
  if (!certificate) return <Chip size="small" variant="outlined" label={t('deployment.domain.certificate.checking')} data-testid="certificate-state" data-state="checking" />;
  const { state, issuer, validTo } = certificate;
  const date = validTo ? shortDate.format(new Date(validTo)) : '';
  // Why there is no certificate: a custom domain gets one once verified; otherwise the edge is obtaining it.
  const detail =
    state === 'issued' || state === 'expired'
      ? t(`deployment.domain.certificate.detail.${state}`, { issuer, date })
      : state === 'none'
        ? t(verified ? 'deployment.domain.certificate.detail.obtaining' : 'deployment.domain.certificate.detail.verifyFirst')
        : t(`deployment.domain.certificate.detail.${state}`);
  // In the panel's row of chips: the detail takes a line of its own below them.
  return (
    <>
      <Chip size="small" color={COLOR[state]} label={t(`deployment.domain.certificate.state.${state}`)} data-testid="certificate-state" data-state={state} />
      <Typography variant="body2" color="text.secondary" sx={{ order: 1, flexBasis: '100%', overflowWrap: 'anywhere' }} data-testid="certificate-detail">
        {detail}
      </Typography>
    </>
  );
}
