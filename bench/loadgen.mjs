// Owns the load generator process: autocannon in a child of its own, one spec in over IPC, one result out, loopback only.
import autocannon from 'autocannon';

/** spec: {port, method, requests: [{path, headers, body?}] (connection i sends requests[i]), connections, durationS, maxRequests?}. */
function run(spec) {
  return new Promise((resolve, reject) => {
    let next = 0;
    const lat = [];
    const inst = autocannon(
      {
        url: `http://127.0.0.1:${spec.port}`,
        connections: spec.connections,
        duration: spec.durationS,
        ...(spec.maxRequests ? { amount: spec.maxRequests } : {}),
        timeout: 30,
        setupClient(client) {
          const r = spec.requests[next++ % spec.requests.length];
          // setRequests, not setRequest: the one request repeats on this connection (setRequest covers only the next one).
          client.setRequests([{ method: spec.method, path: r.path, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}) }]);
        },
      },
      (err, res) => {
        if (err) return reject(err);
        lat.sort((a, b) => a - b);
        const q = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.max(0, Math.ceil(p * lat.length) - 1))] : NaN);
        resolve({ ok2xx: res['2xx'], non2xx: res.non2xx, errors: res.errors, timeouts: res.timeouts, completed: res.requests.total, durationS: res.duration, p50Ms: q(0.5), p99Ms: q(0.99) });
      },
    );
    // Full-precision latencies of 2xx answers (autocannon's own histogram keeps whole milliseconds).
    inst.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) lat.push(ms);
    });
  });
}

process.on('message', (spec) => {
  run(spec).then(
    (result) => process.send({ result }, () => process.exit(0)),
    (e) => process.send({ error: String(e?.message ?? e) }, () => process.exit(1)),
  );
});
