// Uploads one archive in a fresh process and prints its memory figures as JSON, so that nothing
// else this benchmark did (like writing the archive) sits in the measured heap.
const { HostingClient } = require("../dist/api");

async function main() {
  const [url, token, zipPath] = process.argv.slice(2);
  const client = new HostingClient({ apiUrl: url, token, timeoutMs: 300_000 });
  await client.listApps(); // warm the connection and the code paths
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

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
