// The `__provider` text Pulumi stores for a resource type, as the resource classes write it.
const { providerText } = require("../dist/provider/provider-text");

async function serialized(kind) {
  return providerText(kind);
}

module.exports = { serialized };
