// Owns the catalog's public surface: descriptors, the runtime catalog, help, schemas, OpenAPI and the prompt summary.
export { DefaultDescriptorCatalog, actionKey, makeDescriptorCatalog, receiptSelectorsOf, verifyInventory } from './catalog.js';
export { buildRuntimeCatalog, catalogVersion } from './runtime-catalog.js';
export { acceptsEmpty, renderActionHelp, renderDomainHelp, renderRootHelp, exampleCommand, shellQuote } from './help.js';
export { errorSchemaJson, inputSchemaJson, outputSchemaJson } from './json-schema.js';
export { openApiDocument } from './openapi.js';
export { dispatcherPromptSummary } from './prompt.js';
export { validateValue } from './validate.js';
export type { ActionDescriptor, DescriptorCatalog, ExecDomain, InventoryRow, ReadBack, ResultPolicy, Risk, RuntimeCatalog } from './types.js';
