/** Prints rows as left-aligned columns under a header. */
export function printTable(header: string[], rows: string[][], out: NodeJS.WritableStream = process.stdout): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  out.write(`${[line(header), ...rows.map(line)].join('\n')}\n`);
}
