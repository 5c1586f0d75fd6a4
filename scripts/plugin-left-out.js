// Stands in, inside the plugin's bundle (scripts/plugin-bundle.js), for a module left out of it:
// @pulumi/pulumi loads it at start but uses it only to serialize closures, which the plugin never
// does. Loading it is harmless; using it throws, naming what was used.
module.exports = new Proxy(
  {},
  {
    get(_, key) {
      // Asked by module interop helpers (__importStar, await): "not there".
      if (typeof key === "symbol" || key === "__esModule" || key === "then") return undefined;
      throw new Error(
        `pulumi-resource-hosting: \`${key}\` of a module left out of the plugin's bundle ` +
          "(typescript or @npmcli/arborist) was used; please report this as a bug",
      );
    },
  },
);
