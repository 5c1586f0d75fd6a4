// The request log of a `hosting-emulator --log` child (fastify's JSON lines on stdout): every
// answered request of the API, in the order answered, with the emulator's own timestamp.
const { createInterface } = require("node:readline");

/**
 * Collects entries `{ at, arrivedAt, method, url, status }` into the returned array as the child
 * answers requests: `at` when it answered, `arrivedAt` when the request came in, the url without
 * its query; the control API is left out.
 */
function requestLog(child) {
  const pending = new Map();
  const done = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    let e;
    try {
      e = JSON.parse(line);
    } catch {
      return;
    }
    if (e.req) pending.set(e.reqId, { ...e.req, time: e.time });
    else if (e.res && pending.has(e.reqId)) {
      const req = pending.get(e.reqId);
      pending.delete(e.reqId);
      const url = req.url.split("?")[0];
      if (!url.startsWith("/__emulator")) {
        done.push({
          at: e.time,
          arrivedAt: req.time,
          method: req.method,
          url,
          status: e.res.statusCode,
        });
      }
    }
  });
  return done;
}

module.exports = { requestLog };
