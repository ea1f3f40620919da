/** Streams rows as CSV or JSON, batch by batch, so an export of any size never sits in memory. */
import { csvField } from '../../src/domain/csv';

export type ExportFormat = 'csv' | 'json';
export type ExportValue = string | number | boolean | null;

/** A CSV cell, formulas defused (see csvField). */
export function csvCell(value: ExportValue): string {
  return value === null ? '' : csvField(String(value), typeof value === 'string');
}

export async function* exportLines(
  format: ExportFormat,
  columns: { id: string; header: string }[],
  batches: AsyncIterable<Record<string, ExportValue>[]>,
): AsyncGenerator<string> {
  let first = true;
  if (format === 'csv') yield `${columns.map((c) => csvCell(c.header)).join(',')}\n`;
  else yield '[';
  for await (const batch of batches) {
    let chunk = '';
    for (const row of batch) {
      if (format === 'csv') chunk += `${columns.map((c) => csvCell(row[c.id] ?? null)).join(',')}\n`;
      else {
        chunk += `${first ? '' : ','}\n${JSON.stringify(Object.fromEntries(columns.map((c) => [c.id, row[c.id] ?? null])))}`;
        first = false;
      }
    }
    if (chunk) yield chunk;
  }
  if (format === 'json') yield '\n]\n';
}
