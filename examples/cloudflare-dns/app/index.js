// The app behind the Cloudflare-managed domain: a tiny HTTP server.
require("node:http")
  .createServer((_req, res) => res.end("hello from pulumi-hosting, behind Cloudflare DNS\n"))
  .listen(Number(process.env.PORT ?? 8080));
