// The native provider plugin of pulumi-hosting (`pulumi package gen-sdk <this folder>`); the
// engine starts it and talks to it over gRPC. See README "Other languages".
require("../dist/provider/native/main").main(process.argv.slice(2));
