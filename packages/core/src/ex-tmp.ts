import { rulesExtractor } from './index.ts';

const ex = rulesExtractor();
const lines = process.argv.slice(2);
const messages = lines.map((content, i) => ({ id: `m${i}`, role: 'user' as const, content, name: 'ana' }));
for (let i = 0; i < messages.length; i++) {
  const r = await ex.extract({
    messages: [messages[i]!],
    context: messages.slice(0, i),
    knownEntities: [],
  } as never);
  console.log(JSON.stringify(lines[i]));
  for (const f of r.facts)
    console.log('  F', f.entityType, '|', f.entity, '|', f.key, '=', f.value, f.confidence, f.kind);
  for (const e of r.relations) console.log('  R', e.from.name, e.relation, e.to.name, e.kind);
}
