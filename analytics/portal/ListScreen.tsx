import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import type { ReactNode } from 'react';
import { ScreenHeading } from './ScreenHeading';

interface Props {
  titleKey: string;
  /** The create button beside the title; left out when the user may not create. */
  create?: { label: string; onClick: () => void };
  /** Shown between the title and the list, e.g. why the list did not load. */
  notice?: ReactNode;
  /** The list itself (a DataTable). */
  children: ReactNode;
}

/** A dashboard screen that is one list: its title with the create button, and the list on a paper. */
export function ListScreen({ titleKey, create, notice, children }: Props) {
  return (
    <>
      <ScreenHeading titleKey={titleKey}>
        {create && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={create.onClick}>
            {create.label}
          </Button>
        )}
      </ScreenHeading>
      {notice}
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        {children}
      </Paper>
    </>
  );
}
