/** Text from outside (a title, a label, an actor's name), cut to 100 characters, that Markdown shows as written. */
export function markdownText(text: string): string {
  return text.slice(0, 100).replace(/[\\`*_[\]()<>#!|]/g, (c) => `\\${c}`);
}
