import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface SectionColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
}

/** A short, titled table on a record's page (a user's sessions, a company's members). */
export function SectionTable<T>({ title, rows, columns, getRowId, empty }: { title: string; rows: readonly T[]; columns: SectionColumn<T>[]; getRowId: (row: T) => string; empty: string }) {
  return (
    <Paper variant="outlined" sx={{ mb: 3 }}>
      <Typography variant="h2" sx={{ fontSize: '1.125rem', p: 2, pb: 1 }}>
        {title}
      </Typography>
      <TableContainer>
        <Table size="small" aria-label={title}>
          <TableHead>
            <TableRow>
              {columns.map((c) => (
                <TableCell key={c.header} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {c.header}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={getRowId(row)}>
                {columns.map((c) => (
                  <TableCell key={c.header} sx={{ whiteSpace: 'nowrap' }}>
                    {c.cell(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
            {rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={columns.length} sx={{ color: 'text.secondary' }}>
                  {empty}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
