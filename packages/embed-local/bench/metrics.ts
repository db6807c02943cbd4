/** Quality measures for the embedder benchmark. */

/**
 * Area under the ROC curve: the chance that a random similar pair scores above a random
 * dissimilar one (ties count half). 1 is perfect separation, 0.5 is chance.
 */
export function rocAuc(scores: number[], similar: boolean[]): number {
  let positives = 0;
  let negatives = 0;
  let wins = 0;
  for (let i = 0; i < scores.length; i++) {
    if (!similar[i]) continue;
    positives += 1;
    for (let j = 0; j < scores.length; j++) {
      if (similar[j]) continue;
      if (scores[i]! > scores[j]!) wins += 1;
      else if (scores[i] === scores[j]) wins += 0.5;
    }
  }
  for (const label of similar) if (!label) negatives += 1;
  if (positives === 0 || negatives === 0)
    throw new RangeError('rocAuc needs both similar and dissimilar pairs');
  return wins / (positives * negatives);
}

/** The accuracy of "similar when score >= threshold" at the threshold that maximises it. */
export function bestThresholdAccuracy(
  scores: number[],
  similar: boolean[],
): { accuracy: number; threshold: number } {
  const candidates = [...new Set(scores)].sort((a, b) => a - b);
  let best = { accuracy: 0, threshold: Number.NaN };
  for (const threshold of [...candidates, Number.POSITIVE_INFINITY]) {
    let correct = 0;
    for (let i = 0; i < scores.length; i++) if (scores[i]! >= threshold === similar[i]) correct += 1;
    const accuracy = correct / scores.length;
    if (accuracy > best.accuracy) best = { accuracy, threshold };
  }
  return best;
}

/** Share of `relevant` ids found among the first `k` of `ranked` (an id absent from the corpus counts as missed). */
export function recallAtK(ranked: readonly string[], relevant: readonly string[], k: number): number {
  if (relevant.length === 0) throw new RangeError('recallAtK needs at least one relevant id');
  const top = new Set(ranked.slice(0, k));
  let found = 0;
  for (const id of relevant) if (top.has(id)) found += 1;
  return found / relevant.length;
}

export function mean(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / values.length;
}
