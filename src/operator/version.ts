import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The package's version (package.json is two levels up from src/cli and from dist/cli alike). */
export function version(): string {
  return (JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string })
    .version;
}
