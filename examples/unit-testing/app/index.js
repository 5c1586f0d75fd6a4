// The app the basic example deploys: a tiny HTTP server.
const http = require("node:http");

const port = Number(process.env.PORT ?? 8080);
http
  .createServer((_req, res) => {
    res.setHeader("content-type", "text/plain");
    res.end(`${process.env.GREETING ?? "hello"} from pulumi-hosting\n`);
  })
  .listen(port);
