/**
 * One CSV field (RFC 4180 quoting), shared by the server's streamed exports and the browser's.
 * Text that a spreadsheet would run as a formula (leading =, +, -, @, tab or carriage return)
 * gets a leading apostrophe, so it is shown instead of run (CSV injection). Numbers and booleans
 * pass as they are: a negative number is not a formula.
 */
export function csvField(text: string, isText = true): string {
  const safe = isText && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
