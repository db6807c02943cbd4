import { describe, expect, it } from 'vitest';
import { newTenant, provenance, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';
import { episode } from './episodes.ts';
import { fact } from './facts.ts';

/** Texts that break naive encodings: astral emoji and ZWJ sequences, CJK, RTL, combining marks. */
const UNICODE = [
  'Emoji 🎉👩‍👩‍👧‍👦 and 🇫🇷 flags',
  '中文：供应商的交货期是四十五天。日本語のテキスト、한국어 텍스트',
  'עברית: זמן אספקה 45 יום — العربية: مهلة التوريد ٤٥ يوما',
  'Combining: e\u0301 vs é, Zalgo t\u0336\u0335e\u0337x\u0338t, Hangul \u1100\u1161',
  'Controls allowed in text: tab\tnewline\nCRLF\r\nNUL-free, quotes "\' `backtick` \\ backslash',
  'Surrogate edges: 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𐍈 \uFEFF BOM and \u200B zero width',
];

export function payloadsSuite(options: StoreConformanceOptions): void {
  describe('unicode and large payloads', () => {
    const store = useStore(options);

    it('round-trips unicode text exactly through messages, episodes, facts, nodes and metadata', async () => {
      const t = newTenant();
      const messages = await store().threads.appendMessages({
        scope: t.aliceThread,
        messages: UNICODE.map((content, i) => ({
          id: `m${i}`,
          role: 'user' as const,
          content,
          createdAt: T0 + i,
        })),
      });
      expect(messages.map((m) => m.content)).toEqual(UNICODE);
      const listed = await store().threads.listMessages({ scope: t.aliceThread });
      expect(listed.map((m) => m.content)).toEqual(UNICODE);

      await store().episodes.put({
        episodes: UNICODE.map((text, i) =>
          episode(`u${i}`, t.alice, text, { metadata: { [`clé-${i}-🔑`]: text } }),
        ),
      });
      const episodes = await store().episodes.get({ scope: t.alice, ids: UNICODE.map((_, i) => `u${i}`) });
      expect(episodes.map((e) => e.text)).toEqual(UNICODE);
      expect(episodes.map((e) => Object.values(e.metadata)[0])).toEqual(UNICODE);

      const stored = await store().facts.insert({
        fact: fact(
          t.alice,
          'names',
          { he: 'דוד', ar: 'محمد', zh: '王伟', emoji: '🧑‍💻' },
          { entityId: 'Zoë Ünal 🦄' },
        ),
      });
      const [back] = await store().facts.get({ scope: t.alice, ids: [stored.id] });
      expect(back!.value).toEqual({ he: 'דוד', ar: 'محمد', zh: '王伟', emoji: '🧑‍💻' });
      expect(back!.entityId).toBe('Zoë Ünal 🦄');

      const nodeRecord = await store().graph.upsertNode({
        node: { scope: t.alice, type: 'person', name: '王伟 (Wáng Wěi)', aliases: ['ואנג'], provenance },
      });
      const found = await store().graph.findNodes({ scope: t.alice, names: ['王伟 (wáng wěi)'] });
      expect(found.map((n) => n.id)).toEqual([nodeRecord.id]);
      expect(found[0]!.aliases).toEqual(['ואנג']);
      expect((await store().graph.findNodes({ scope: t.alice, names: ['ואנג'] })).map((n) => n.id)).toEqual([
        nodeRecord.id,
      ]);
    });

    it('round-trips a 150,000-character text in a message and an episode', async () => {
      const t = newTenant();
      const unit = 'Lorem ipsum 🎉 中文 עברית ';
      const big = unit.repeat(Math.ceil(150_000 / unit.length)).slice(0, 150_000);
      expect(big.length).toBe(150_000);
      await store().threads.appendMessages({
        scope: t.aliceThread,
        messages: [{ id: 'big', role: 'user', content: big, createdAt: T0 }],
      });
      const [message] = await store().threads.getMessages({ scope: t.aliceThread, ids: ['big'] });
      expect(message!.content === big).toBe(true);
      await store().episodes.put({ episodes: [episode(t.id('big'), t.alice, big)] });
      const [stored] = await store().episodes.get({ scope: t.alice, ids: t.ids('big') });
      expect(stored!.text.length).toBe(150_000);
      expect(stored!.text === big).toBe(true);
    });

    it('finds unicode words by keyword search', async ({ skip }) => {
      skip(!store().capabilities.keywordSearch, 'the store does not declare keywordSearch');
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('fr'), t.alice, 'Le café ouvre à huit heures'),
          episode(t.id('ru'), t.alice, 'Поставщик подтвердил сроки'),
          episode(t.id('en'), t.alice, 'Plain English text'),
        ],
      });
      const ids = async (query: string) =>
        (await store().episodes.searchKeyword({ scope: t.alice, query })).map((r) => r.episode.id);
      expect(await ids('café')).toEqual(t.ids('fr'));
      expect(await ids('Поставщик')).toEqual(t.ids('ru'));
    });
  });
}
