/**
 * Text from outside (a title, a label, an actor's name), cut to `max` characters, that Markdown shows as written:
 * `$` too, which the Temporal Web UI's Markdown takes as the start of math.
 */
export function markdownText(text: string, max = 100): string {
  return text.slice(0, max).replace(/[\\`*_[\]()<>#!|$]/g, (c) => `\\${c}`);
}
