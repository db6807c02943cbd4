/**
 * The parts of the USE-lite transformer that are not matrix products, on plain typed arrays. A
 * batch is its token rows laid end to end (`[tokens, width]`, row-major) with each text's length
 * alongside: no padding, so no masks.
 */

/** Layer normalisation of each row of `x` (`[rows, width]`), then `* scale + bias`. */
export function layerNorm(args: {
  x: Float32Array;
  width: number;
  scale: Float32Array;
  bias: Float32Array;
  epsilon: number;
}): Float32Array {
  const { x, width, scale, bias, epsilon } = args;
  const out = new Float32Array(x.length);
  for (let start = 0; start < x.length; start += width) {
    let sum = 0;
    for (let i = 0; i < width; i++) sum += x[start + i]!;
    const mean = sum / width;
    let squares = 0;
    for (let i = 0; i < width; i++) {
      const d = x[start + i]! - mean;
      squares += d * d;
    }
    const inverse = 1 / Math.sqrt(squares / width + epsilon);
    for (let i = 0; i < width; i++) out[start + i] = (x[start + i]! - mean) * inverse * scale[i]! + bias[i]!;
  }
  return out;
}

/**
 * Multi-head scaled dot-product self-attention of each text over its own tokens. `qkv` holds per
 * token the queries, keys and values (`[tokens, 3 * width]`, each part split into `heads` equal
 * slices); queries are multiplied by `queryScale`. Returns `[tokens, width]`, heads side by side.
 */
export function selfAttention(args: {
  qkv: Float32Array;
  lengths: readonly number[];
  width: number;
  heads: number;
  queryScale: number;
}): Float32Array {
  const { qkv, lengths, width, heads, queryScale } = args;
  const depth = width / heads;
  const stride = 3 * width;
  const tokens = qkv.length / stride;
  const out = new Float32Array(tokens * width);
  const longest = Math.max(0, ...lengths);
  const weights = new Float64Array(longest);
  let first = 0;
  for (const length of lengths) {
    for (let head = 0; head < heads; head++) {
      const q = head * depth;
      const k = width + head * depth;
      const v = 2 * width + head * depth;
      for (let i = 0; i < length; i++) {
        const query = (first + i) * stride + q;
        let max = Number.NEGATIVE_INFINITY;
        for (let j = 0; j < length; j++) {
          const key = (first + j) * stride + k;
          const score = dot(qkv, query, key, depth) * queryScale;
          weights[j] = score;
          if (score > max) max = score;
        }
        let total = 0;
        for (let j = 0; j < length; j++) {
          const e = Math.exp(weights[j]! - max);
          weights[j] = e;
          total += e;
        }
        const target = (first + i) * width + head * depth;
        for (let j = 0; j < length; j++) {
          const weight = weights[j]! / total;
          addScaled(out, target, qkv, (first + j) * stride + v, weight, depth);
        }
      }
    }
    first += length;
  }
  return out;
}

/** Dot product of `x[a, a + n)` and `x[b, b + n)`, four lanes at a time (independent sums run faster). */
function dot(x: Float32Array, a: number, b: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < n; d += 4) {
    s0 += x[a + d]! * x[b + d]!;
    s1 += x[a + d + 1]! * x[b + d + 1]!;
    s2 += x[a + d + 2]! * x[b + d + 2]!;
    s3 += x[a + d + 3]! * x[b + d + 3]!;
  }
  for (; d < n; d++) s0 += x[a + d]! * x[b + d]!;
  return s0 + s1 + s2 + s3;
}

/** `out[at, at + n) += weight * x[from, from + n)`. */
function addScaled(
  out: Float32Array,
  at: number,
  x: Float32Array,
  from: number,
  weight: number,
  n: number,
): void {
  let d = 0;
  for (; d + 3 < n; d += 4) {
    out[at + d]! += weight * x[from + d]!;
    out[at + d + 1]! += weight * x[from + d + 1]!;
    out[at + d + 2]! += weight * x[from + d + 2]!;
    out[at + d + 3]! += weight * x[from + d + 3]!;
  }
  for (; d < n; d++) out[at + d]! += weight * x[from + d]!;
}

/**
 * The transformer's sinusoid position signal for positions `0..positions-1`: per position,
 * `sin(position * t)` for each inverse timescale `t`, then `cos(position * t)` (`[positions, 2 * t.length]`).
 */
export function timingSignal(positions: number, inverseTimescales: Float32Array): Float32Array {
  const channels = inverseTimescales.length;
  const out = new Float32Array(positions * 2 * channels);
  for (let p = 0; p < positions; p++) {
    for (let c = 0; c < channels; c++) {
      // The graph multiplies in float32 before taking sin and cos.
      const angle = Math.fround(p * inverseTimescales[c]!);
      out[p * 2 * channels + c] = Math.sin(angle);
      out[p * 2 * channels + channels + c] = Math.cos(angle);
    }
  }
  return out;
}

/** Adds `y` into `x` element by element (same length). Returns `x`. */
export function addInto(x: Float32Array, y: Float32Array): Float32Array {
  for (let i = 0; i < x.length; i++) x[i]! += y[i]!;
  return x;
}
