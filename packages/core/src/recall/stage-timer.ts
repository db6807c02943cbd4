/**
 * Wall time of a recall's stages, for benchmarks (`RecallDeps.onStages`). Stages that run
 * concurrently (working memory, facts, episodes, graph) overlap; sub-stages of episode retrieval
 * (`embed`, `keyword`, `vector`, `neighbours`, `rank`) are inside `episodes`.
 */
export type RecallStage =
  | 'working'
  | 'facts'
  | 'episodes'
  | 'graph'
  | 'embed'
  | 'keyword'
  | 'vector'
  | 'neighbours'
  | 'rank'
  | 'assemble';

export class StageTimer {
  readonly #stages: Partial<Record<RecallStage, number>> = {};

  add(stage: RecallStage, ms: number): void {
    this.#stages[stage] = (this.#stages[stage] ?? 0) + ms;
  }

  async time<T>(stage: RecallStage, fn: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      this.add(stage, performance.now() - start);
    }
  }

  timeSync<T>(stage: RecallStage, fn: () => T): T {
    const start = performance.now();
    try {
      return fn();
    } finally {
      this.add(stage, performance.now() - start);
    }
  }

  stages(): Partial<Record<RecallStage, number>> {
    return { ...this.#stages };
  }
}
