export { type NamespaceScope, namespaceLevels } from './namespace-scope.ts';
export {
  INDEX_METADATA_KEY,
  ITEM_ENTITY_TYPE,
  ITEM_FACT_KEY,
  type SearchItem,
  StrataStore,
  type StrataStoreOptions,
} from './strata-store.ts';
