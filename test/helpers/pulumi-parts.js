// Pulumi's own generated gRPC stubs, loaded from @pulumi/pulumi with the grpc-js they were built for.
const { join } = require("node:path");

const ROOT = join(__dirname, "..", "..");
const PULUMI_DIR = join(ROOT, "node_modules", "@pulumi", "pulumi");
const fromPulumi = (id) => require(require.resolve(id, { paths: [PULUMI_DIR] }));

module.exports = {
  ROOT,
  PULUMI_DIR,
  grpc: fromPulumi("@grpc/grpc-js"),
  structproto: fromPulumi("google-protobuf/google/protobuf/struct_pb"),
  emptyproto: fromPulumi("google-protobuf/google/protobuf/empty_pb"),
  provrpc: require(join(PULUMI_DIR, "proto", "provider_grpc_pb")),
  provproto: require(join(PULUMI_DIR, "proto", "provider_pb")),
  resrpc: require(join(PULUMI_DIR, "proto", "resource_grpc_pb")),
  resproto: require(join(PULUMI_DIR, "proto", "resource_pb")),
  enginerpc: require(join(PULUMI_DIR, "proto", "engine_grpc_pb")),
  engineproto: require(join(PULUMI_DIR, "proto", "engine_pb")),
  statusproto: require(join(PULUMI_DIR, "proto", "status_pb")),
  /** Pulumi's wire markers for secrets and values not yet known. */
  SECRET_SIG: "4dabf18193072939515e22adb298388d",
  SECRET_VALUE: "1b47061264138c4ac30d75fd1eb44270",
  UNKNOWN: "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
};
