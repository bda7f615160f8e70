import { type Table, tableCsv, tableJson } from '../rules/index.ts';

// CSV and JSON downloads of one table, made in the browser from the rows the page shows (the
// arena's row builders, rules/tables.ts: the same files `db8 arena run` writes to tables/).

function save(text: string, type: string, file: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later, not at once: the browser reads the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function Downloads(props: { table: Table; stem: string; label: string }) {
  const { table, stem, label } = props;
  return (
    <span className="arena-downloads">
      <button
        type="button"
        className="ghost small"
        aria-label={`Download ${label} as CSV`}
        data-testid={`arena-csv-${table.name}`}
        onClick={() => save(tableCsv(table), 'text/csv;charset=utf-8', `${stem}-${table.name}.csv`)}
      >
        CSV
      </button>
      <button
        type="button"
        className="ghost small"
        aria-label={`Download ${label} as JSON`}
        data-testid={`arena-json-${table.name}`}
        onClick={() => save(tableJson(table), 'application/json', `${stem}-${table.name}.json`)}
      >
        JSON
      </button>
    </span>
  );
}

/** A file-name stem from the tournament's name: letters, digits and dashes. */
export const stemOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'arena';
