// Pulumi's property values on the wire: secrets wrapped in a signature object, unknowns a sentinel.
const { SECRET_SIG, SECRET_VALUE, UNKNOWN } = require("./pulumi-parts");

const isSecret = (v) => v !== null && typeof v === "object" && v[SECRET_SIG] === SECRET_VALUE;

/** Strips secret wrappers; returns plain values and the top-level keys that held a secret. */
function unwrap(props) {
  const secretKeys = new Set();
  const strip = (v, top) => {
    if (isSecret(v)) {
      secretKeys.add(top);
      return strip(v.value, top);
    }
    if (Array.isArray(v)) return v.map((x) => strip(x, top));
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x, top)]));
    }
    return v;
  };
  const plain = {};
  for (const [k, v] of Object.entries(props)) plain[k] = strip(v, k);
  return { plain, secretKeys };
}

function wrap(props, secretKeys) {
  const out = { ...props };
  for (const k of secretKeys) {
    if (out[k] !== undefined) out[k] = { [SECRET_SIG]: SECRET_VALUE, value: out[k] };
  }
  return out;
}

const hasUnknown = (v) =>
  v === UNKNOWN ||
  (Array.isArray(v)
    ? v.some(hasUnknown)
    : v !== null && typeof v === "object" && Object.values(v).some(hasUnknown));

/** Equality of property bags regardless of key order. */
function sameProps(a, b) {
  const norm = (v) =>
    Array.isArray(v)
      ? v.map(norm)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, norm(v[k])]),
          )
        : v;
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

module.exports = { unwrap, wrap, hasUnknown, sameProps };
