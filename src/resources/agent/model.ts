/** The Agent's domain for the service side (client, emulator, review): its fields, outputs, answer and type tokens. */
export * from "./fields";
export * from "./outputs-table";
export * from "./inputs-outputs";
export * from "./manifest";
export * from "./service-agent";
export * from "./type-tokens";
