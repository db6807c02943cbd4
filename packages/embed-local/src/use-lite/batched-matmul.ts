/**
 * Attention products on XNNPACK. TF.js's WebAssembly backend runs a `BatchMatMul` through XNNPACK
 * only when it is one plain product (one matrix on each side, neither transposed); anything else
 * (the per-head products of attention: `[batch, heads, tokens, depth]` times its transpose, then
 * the weights times the values) falls back to scalar loops, about 16x slower per operation, which
 * made attention half the model's time. Here each of those nodes is rerouted to a custom op that
 * splits the batch into single products (transposing the right side once up front when needed),
 * so every one runs on XNNPACK, and puts the results back together. Same operations, same order
 * of terms per output row: the vectors agree with the scalar path to float rounding.
 */
import type * as converter from '@tensorflow/tfjs-converter';
import type * as tfc from '@tensorflow/tfjs-core';

/** The op name the rerouted nodes get: unique to this package, so no other graph model is affected. */
export const BATCHED_MATMUL_OP = 'StrataUseLiteBatchedMatMul';

const BATCH_MATMUL_OPS = new Set(['BatchMatMul', 'BatchMatMulV2']);

interface TopologyNode {
  op?: unknown;
}

/**
 * A copy of a TF.js graph topology whose `BatchMatMul` nodes run as `BATCHED_MATMUL_OP`. Nodes
 * are copied only where they change; the rest is shared with `topology`.
 */
export function rerouteBatchedMatMuls(topology: object): object {
  const nodes = (topology as { node?: unknown }).node;
  if (!Array.isArray(nodes)) return topology;
  return {
    ...topology,
    node: nodes.map((node: TopologyNode) =>
      typeof node.op === 'string' && BATCH_MATMUL_OPS.has(node.op)
        ? { ...node, op: BATCHED_MATMUL_OP }
        : node,
    ),
  };
}

function flag(value: unknown): boolean {
  return value === true;
}

/** `a @ b` (with TF's `adj_x`/`adj_y`) over matching leading dimensions, one XNNPACK product per matrix. */
export function batchedMatMul(
  tf: typeof tfc,
  args: { a: tfc.Tensor; b: tfc.Tensor; adjointA: boolean; adjointB: boolean },
): tfc.Tensor {
  const { a, b, adjointA, adjointB } = args;
  const rank = a.rank;
  const leading = a.shape.slice(0, -2);
  const count = leading.reduce((n, d) => n * d, 1);
  const sameLeading = b.rank === rank && b.shape.slice(0, -2).every((d, i) => d === leading[i]);
  // What the rerouting is for: several matrices per side. Anything else keeps TF.js's own kernel.
  if (rank < 3 || !sameLeading || count < 1 || a.dtype !== 'float32' || b.dtype !== 'float32') {
    return tf.matMul(a, b, adjointA, adjointB);
  }
  // XNNPACK takes neither side transposed: materialise the transposes once for the whole batch.
  const swapLast = [...Array(rank - 2).keys(), rank - 1, rank - 2];
  const left = adjointA ? tf.transpose(a, swapLast) : a;
  const right = adjointB ? tf.transpose(b, swapLast) : b;
  const [m, k] = left.shape.slice(-2) as [number, number];
  const n = right.shape[rank - 1]!;
  // One read of each side. (Slicing a tensor on this backend copies the whole tensor every time,
  // so taking the matrices out one slice at a time would cost count x its size.)
  let leftValues: Float32Array;
  let rightValues: Float32Array;
  try {
    leftValues = left.dataSync() as Float32Array;
    rightValues = right.dataSync() as Float32Array;
  } finally {
    if (left !== a) left.dispose();
    if (right !== b) right.dispose();
  }
  const out = new Float32Array(count * m * n);
  for (let i = 0; i < count; i++) {
    const product = tf.tidy(() =>
      tf.matMul(
        tf.tensor2d(leftValues.subarray(i * m * k, (i + 1) * m * k), [m, k], 'float32'),
        tf.tensor2d(rightValues.subarray(i * k * n, (i + 1) * k * n), [k, n], 'float32'),
      ),
    );
    out.set(product.dataSync() as Float32Array, i * m * n);
    product.dispose();
  }
  return tf.tensor(out, [...leading, m, n], 'float32');
}

const registered = new WeakSet<object>();

/**
 * Registers `BATCHED_MATMUL_OP` with the graph executor (process-wide, idempotent). Run the
 * graph from `rerouteBatchedMatMuls(topology)` to use it.
 */
export function registerBatchedMatMul(tf: typeof tfc, graph: typeof converter): void {
  if (registered.has(graph)) return;
  registered.add(graph);
  graph.registerOp(BATCHED_MATMUL_OP, (node) => {
    const [a, b] = node.inputs;
    if (a === undefined || b === undefined) {
      throw new RangeError(`${BATCHED_MATMUL_OP} needs two inputs, got ${node.inputs.length}`);
    }
    return batchedMatMul(tf, { a, b, adjointA: flag(node.attrs.adj_x), adjointB: flag(node.attrs.adj_y) });
  });
}
