/** Streams rows as CSV or JSON, batch by batch, so an export of any size never sits in memory. */

export type ExportFormat = 'csv' | 'json';
export type ExportValue = string | number | boolean | null;

// A cell starting with one of these could run as a formula in a spreadsheet.
const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: ExportValue): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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
