/* Moved to src/shared (data sources use it too); kept so imports from provider/ keep working. */
export * from "../shared/validate";
