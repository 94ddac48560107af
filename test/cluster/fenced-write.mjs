// Usage: node fenced-write.mjs <url> <resource> <token> <value> <writer> <out file>
// POSTs one fenced write, retrying while the network does not answer (a request held up by a
// cut link arrives when it comes back), for 5 minutes at most. Writes "<http status> <body>" to <out file>.
import { writeFileSync } from 'node:fs';

const [url, resource, token, value, writer, out] = process.argv.slice(2);
const deadline = Date.now() + 300_000;
while (Date.now() < deadline) {
  try {
    const res = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ resource, token: Number(token), value, writer }),
      signal: AbortSignal.timeout(2_000),
    });
    writeFileSync(out, `${res.status} ${await res.text()}`);
    process.exit(res.status === 200 ? 0 : 3);
  } catch {
    await new Promise((r) => setTimeout(r, 200));
  }
}
process.exit(4);
