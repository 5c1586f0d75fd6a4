// The harness's state file: JSON, with every secret value sealed (AES-256-GCM, key beside it).
const { createCipheriv, createDecipheriv, randomBytes } = require("node:crypto");
const { existsSync, readFileSync, renameSync, writeFileSync } = require("node:fs");

function keyFor(stateFile) {
  const keyFile = `${stateFile}.key`;
  if (!existsSync(keyFile))
    writeFileSync(keyFile, randomBytes(32).toString("hex"), { mode: 0o600 });
  return Buffer.from(readFileSync(keyFile, "utf8"), "hex");
}

function seal(key, value) {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([c.update(JSON.stringify(value), "utf8"), c.final()]);
  return { ciphertext: Buffer.concat([iv, c.getAuthTag(), body]).toString("base64") };
}

function open(key, sealed) {
  const raw = Buffer.from(sealed.ciphertext, "base64");
  const d = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString("utf8"));
}

const mapSecrets = (obj, keys, fn) => {
  const out = { ...obj };
  for (const k of keys) if (out[k] !== undefined) out[k] = fn(out[k]);
  return out;
};

/** Applies fn to every secret value: to seal on the way to disk, to open on the way back. */
function mapState(state, fn) {
  return {
    resources: state.resources.map((r) => ({
      ...r,
      inputs: mapSecrets(r.inputs, r.secretKeys, fn),
      outputs: mapSecrets(r.outputs, r.secretKeys, fn),
    })),
    outputs: mapSecrets(state.outputs, state.secretOutputs, fn),
    secretOutputs: state.secretOutputs,
  };
}

/** Reads the state; secret values come back in plain form for the harness's own use. */
function loadState(stateFile) {
  if (!existsSync(stateFile)) return { resources: [], outputs: {}, secretOutputs: [] };
  const key = keyFor(stateFile);
  return mapState(JSON.parse(readFileSync(stateFile, "utf8")), (v) => open(key, v));
}

function saveState(stateFile, state) {
  const key = keyFor(stateFile);
  const raw = mapState(state, (v) => seal(key, v));
  writeFileSync(`${stateFile}.tmp`, JSON.stringify(raw, null, 2));
  renameSync(`${stateFile}.tmp`, stateFile);
}

module.exports = { loadState, saveState };
