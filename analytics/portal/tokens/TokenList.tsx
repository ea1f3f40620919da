import DeleteIcon from '@mui/icons-material/Delete';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TokenDto } from '../../domain/schemas';
import { actionsColumn } from '../../../src/ui/table/columns';
import { DataTable } from '../../../src/ui/table/DataTable';
import { useAnalytics } from '../context';
import { useConfirmDelete } from '../confirmDelete';
import { ListScreen } from '../ListScreen';
import { useListSource } from '../useListSource';

type Row = TokenDto;

/** Management › Token manager: tokens with their purpose, endpoints, apps, expiry and status. */
export function TokenList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { apps, basePath, writable } = useAnalytics();
  const deleteToken = useConfirmDelete((api, id: string) => api.deleteToken(id), (_error, t) => t('analytics.tokens.deleteFailed'));
  const { source } = useListSource('tokens');
  const appName = (id: string) => apps.find((a) => a._id === id)?.name ?? id;

  const remove = (token: TokenDto) =>
    deleteToken(token._id, { title: t('analytics.tokens.deleteTitle'), message: t('analytics.tokens.deleteBody'), confirmLabel: t('analytics.delete'), deleted: t('analytics.tokens.deleted') });
  const create = () => navigate(`${basePath}/tokens/create`);

  return (
    <ListScreen titleKey="analytics.tokens.title" create={writable ? { label: t('analytics.tokens.create'), onClick: create } : undefined}>
        <DataTable<Row>
          id="analytics-tokens"
          label={t('analytics.tokens.title')}
          columns={[
            { id: 'purpose', header: t('analytics.tokens.purpose'), value: (r) => r.purpose },
            {
              id: 'status',
              header: t('analytics.tokens.statusHeader'),
              value: (r) => t(`analytics.tokens.statuses.${r.status}`),
              render: (r) => <Chip size="small" color={r.status === 'active' ? 'success' : 'default'} label={t(`analytics.tokens.statuses.${r.status}`)} />,
            },
            { id: 'endpoints', header: t('analytics.tokens.endpoints'), sortable: false, value: (r) => (r.endpoints.length ? r.endpoints.map((e) => e.path).join(', ') : t('analytics.tokens.anyEndpoint')) },
            { id: 'apps', header: t('analytics.tokens.apps'), sortable: false, value: (r) => (r.apps ? r.apps.map(appName).join(', ') : t('analytics.tokens.allApps')), dynamic: true, defaultSelected: true },
            { id: 'expiresAt', header: t('analytics.tokens.expiresAt'), value: (r) => (r.expiresAt ? new Date(r.expiresAt).toLocaleString('en-US') : t('analytics.never')) },
            { id: 'multiUse', header: t('analytics.tokens.multiUse'), value: (r) => (r.multiUse ? t('analytics.yes') : t('analytics.no')), dynamic: true },
            { id: 'owner', header: t('analytics.tokens.owner'), value: (r) => r.owner.fullName, dynamic: true },
            ...(writable
              ? [
                  actionsColumn<Row>((r) => (
                    <IconButton aria-label={`${t('analytics.delete')} ${r.purpose}`} onClick={() => void remove(r)}>
                      <DeleteIcon />
                    </IconButton>
                  )),
                ]
              : []),
          ]}
          source={source}
          getRowId={(r) => r._id}
          exportName="tokens"
          emptyTitle={t('analytics.tokens.empty')}
          createLabel={t('analytics.tokens.create')}
          canCreate={writable}
          onCreate={create}
        />
    </ListScreen>
  );
}
