// Uploads one archive in a fresh process and prints its memory figures as JSON, so that nothing
// else this benchmark did (like writing the archive) sits in the measured heap.
const { HostingClient } = require("../dist/api");

async function main() {
  const [url, token, zipPath] = process.argv.slice(2);
  const client = new HostingClient({ apiUrl: url, token, timeoutMs: 300_000 });
  await client.listApps(); // warm the connection and the code paths
  await settled();
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  const t = Date.now();
  await client.createApp({ archivePath: zipPath, env: { A: "1" } });
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  await client.close();
  console.log(JSON.stringify({ baseline, peak, ms: Date.now() - t }));
}

/**
 * Waits until RSS has stopped moving. After the first request, V8 recompiles undici's llhttp
 * WebAssembly with TurboFan on background threads: about 30 MB for some 150 ms, gone with
 * --liftoff-only. Any first request pays it once, whatever it sends; it is not the upload's.
 */
async function settled() {
  const seen = [];
  for (let i = 0; i < 500; i++) {
    seen.push(process.memoryUsage().rss);
    const last = seen.slice(-30); // 300 ms
    if (last.length === 30 && Math.max(...last) - Math.min(...last) < 1024 * 1024) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
