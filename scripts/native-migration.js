/*
 * Plans moving a stack from the dynamic resources (`pulumi-nodejs:dynamic/hosting:<Kind>`) to
 * the native plugin (`hosting:index:<Kind>`) without touching the service: which URNs to take
 * out of the state (`pulumi state delete`, which leaves the objects alone), and a file for
 * `pulumi import --file` that takes them back under their native types, by the ids the native
 * plugin reads (an app's id, a custom domain's hostname, the app id of a toggle).
 *
 * Usage: pulumi stack export > state.json && node scripts/native-migration.js state.json
 * Prints { remove: [urn…], import: { resources: […] }, skipped: [{ urn, why }] } as JSON.
 */
const fs = require("node:fs");

const DYNAMIC = /^pulumi-nodejs:dynamic\/hosting:(\w+)$/;
const ACTIONS = new Set(["VmStart", "DatabaseSetupRetry", "BackupDeletion"]);

/** The id `pulumi import` takes for a kind, from the dynamic resource's state. */
function importId(kind, r) {
  if (kind === "CustomDomain") return r.outputs.domain;
  return r.id;
}

function plan(state) {
  const resources = state.deployment?.resources ?? [];
  const remove = [];
  const imports = [];
  const skipped = [];
  for (const r of resources) {
    const kind = DYNAMIC.exec(r.type)?.[1];
    if (!kind) continue;
    if (ACTIONS.has(kind)) {
      // An action holds nothing on the service; declared with the native type it runs again.
      skipped.push({ urn: r.urn, why: "an action: remove it from the state and the program" });
      continue;
    }
    if (r.inputs?.account !== undefined) {
      skipped.push({
        urn: r.urn,
        why: `account "${r.inputs.account}": import it with an explicit hosting provider of that account`,
      });
      continue;
    }
    remove.push(r.urn);
    imports.push({
      type: `hosting:index:${kind}`,
      name: r.urn.split("::").pop(),
      id: importId(kind, r),
    });
  }
  // Dependents first: `pulumi state delete` refuses to remove what others still depend on.
  const isApp = (urn) => urn.includes("::pulumi-nodejs:dynamic/hosting:App::");
  remove.sort((a, b) => Number(isApp(a)) - Number(isApp(b)));
  return { remove, import: { resources: imports }, skipped };
}

module.exports = { plan };

if (require.main === module) {
  const file = process.argv[2];
  const text = fs.readFileSync(file ?? 0, "utf8");
  process.stdout.write(`${JSON.stringify(plan(JSON.parse(text)), null, 2)}\n`);
}
