import type { EpisodeStore, Store, StoreTransaction } from '@strata-memory/core';

/** A store whose access recording can be switched off, and the switch. */
export interface AccessSwitch {
  readonly store: Store;
  /** From now on `episodes.recordAccess` records nothing. */
  freeze(): void;
}

function gatedEpisodes(episodes: EpisodeStore, frozen: () => boolean): EpisodeStore {
  return {
    ...episodes,
    recordAccess: async (args) => {
      if (!frozen()) await episodes.recordAccess(args);
    },
  };
}

/**
 * Wraps `store` so that, once frozen, recalls no longer raise the access counts of what they
 * return. The benchmark freezes it before the questions: every question (and every budget of a
 * question) then meets the same memory, instead of one its own earlier probes have reinforced.
 * Everything else passes through unchanged.
 */
export function accessSwitch(store: Store): AccessSwitch {
  let frozen = false;
  const isFrozen = () => frozen;
  const wrapped: Store = {
    ...store,
    episodes: gatedEpisodes(store.episodes, isFrozen),
    transaction: (fn) =>
      store.transaction((tx: StoreTransaction) =>
        fn({ ...tx, episodes: gatedEpisodes(tx.episodes, isFrozen) }),
      ),
    forget: (args) => store.forget(args),
    close: () => store.close(),
  };
  return {
    store: wrapped,
    freeze() {
      frozen = true;
    },
  };
}
