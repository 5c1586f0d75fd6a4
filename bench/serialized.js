// The `__provider` text Pulumi stores for a resource type, as the engine would send it.
const pulumi = require("@pulumi/pulumi");
const { thinProvider } = require("../dist/provider/thin-provider");

async function serialized(kind) {
  const provider = thinProvider(kind);
  return (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}

module.exports = { serialized };
