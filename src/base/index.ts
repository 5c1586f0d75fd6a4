/*
 * The floor every room stands on: small tools that import no other room and no package, so any
 * room (the client package and the emulator too) may use them.
 */
export * from "./besides";
export * from "./camel";
export * from "./clock";
export * from "./lazy";
export * from "./memo";
export * from "./type-equality";
