/** An NDJSON stream read in tests (the bot event stream, a game stream). */
/** Reads an NDJSON answer line by line; empty lines (heartbeats) are counted, not parsed. */
export async function openStream(url: string, headers: Record<string, string> = {}) {
  const ctl = new AbortController();
  const res = await fetch(url, { headers, signal: ctl.signal });
  const lines: any[] = [];
  let heartbeats = 0;
  let done = false;
  if (res.status === 200) {
    void (async () => {
      const decoder = new TextDecoder();
      let buf = "";
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          let nl;
          while ((nl = buf.indexOf("\n")) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (line.trim() === "") heartbeats++;
            else lines.push(JSON.parse(line));
          }
        }
      } catch {
        // aborted by the test
      }
      done = true;
    })();
  }
  return { res, lines, heartbeats: () => heartbeats, done: () => done, close: () => ctl.abort() };
}
