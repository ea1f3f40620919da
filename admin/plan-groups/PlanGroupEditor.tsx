import LinearProgress from '@mui/material/LinearProgress';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { BeaconDataProvider } from '../../dataProvider/dataProvider';
import type { PlanGroupEditor as EditorData } from '../../src/domain/admin/schemas';
import { PlanGroupEditorForm } from './PlanGroupEditorForm';

const RESOURCE = 'admin/plan-groups';

/** The plan group editor: the whole catalogue with the group's selection and prices, its companies, its name. */
export function PlanGroupEditor() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const dataProvider = useDataProvider<BeaconDataProvider>();
  const editor = useQuery({ queryKey: [RESOURCE, 'editor', id], queryFn: () => dataProvider.recordView<EditorData>(RESOURCE, { id, view: 'editor' }).then((r) => r.data) });
  if (!editor.data) return <LinearProgress aria-label={t('admin.loading')} />;
  // A fresh answer (after a save) starts the form again from what the server holds.
  return <PlanGroupEditorForm key={editor.dataUpdatedAt} id={id} data={editor.data} onSaved={() => void editor.refetch()} />;
}
