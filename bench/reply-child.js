// Asks a server for a reply of 1 GiB in a fresh process and prints its memory figures as JSON:
// the client must refuse it past maxResponseBytes while streaming, with memory flat.
const { HostingClient } = require("../dist/api");

async function main() {
  const [url] = process.argv.slice(2);
  const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiZW5jaCJ9.c2lnbmF0dXJlLW9mLWEtYmVuY2g";
  const client = new HostingClient({ apiUrl: url, token });
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  const t = Date.now();
  const err = await client.listApps().then(
    () => new Error("a 1 GiB reply was accepted"),
    (e) => e,
  );
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  await client.close();
  console.log(
    JSON.stringify({ baseline, peak, ms: Date.now() - t, code: err.code, message: err.message }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
