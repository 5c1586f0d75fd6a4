// The app under test: answers "ok", and says whether it was given a database.
require("node:http")
  .createServer((_req, res) => res.end(process.env.DATABASE_URL ? "ok, with a database" : "ok"))
  .listen(Number(process.env.PORT ?? 8080));
