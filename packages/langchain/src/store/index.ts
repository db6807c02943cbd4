export { type NamespaceScope, namespaceLevels } from './namespace-scope.ts';
export {
  ITEM_ENTITY_TYPE,
  ITEM_FACT_KEY,
  ITEM_METADATA_KEY,
  type SearchItem,
  StrataStore,
  type StrataStoreOptions,
} from './strata-store.ts';
