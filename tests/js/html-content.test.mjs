// htmlToText's `content` option through the built package: the main content of a page in
// a template, the same as its print copy; all the text by default; bad values refused by
// the core's validation with a SimHashError naming the option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as esm from '../../pkg/index.mjs';

const require = createRequire(import.meta.url);
const cjs = require('../../pkg/index.cjs');

const PARAS = [
  'Near-duplicate detection finds pages that say the same thing, even when their markup, their ads and their counters differ.',
  'A crawler meets the same article under many addresses: mirrors, print views, syndicated copies, and tracking parameters.',
  '爬虫会在许多地址遇到同一篇文章：镜像、打印版本、转载的副本，以及只改变了查询参数的网页。',
];
const body = PARAS.map((p) => `<p>${p}</p>`).join('');
const nav = Array.from({ length: 15 }, (_, i) => `<li><a href=/s${i}>Section ${i}</a></li>`).join('');
const templated = `<html><head><title>T</title></head><body><header><a href=/>Site</a></header><nav><ul>${nav}</ul></nav>
  <main><article><h1>Headline</h1><div class=article-body>${body}</div></article>
  <section class=comments><p>A comment, with some words in it, that is not the article.</p></section></main>
  <aside class=sidebar><a href=/x>Most read story of the week</a></aside><footer>Copyright 2024, all rights reserved.</footer></body></html>`;
const print = `<html><body>${body}</body></html>`;

for (const [name, api] of [['cjs', cjs], ['esm', esm]]) {
  test(`${name}: content "main" keeps the article and drops the template`, () => {
    const main = api.htmlToText(templated, { content: 'main' });
    assert.equal(main, PARAS.join('\n'));
    assert.equal(api.htmlToText(print, { content: 'main' }), main);
    const all = api.htmlToText(templated);
    assert.equal(api.htmlToText(templated, { content: 'all' }), all);
    assert.ok(all.includes('Section 14') && all.includes('Copyright') && all.includes(PARAS[0]));
    assert.equal(api.htmlToText(templated, {}), all);
    assert.equal(api.htmlToText(templated, undefined), all);
  });

  test(`${name}: a bad content option throws InvalidOption`, () => {
    for (const [options, shown] of [[{ content: 'article' }, '"article"'], [{ content: 1 }, '1'], [{ mode: 'main' }, 'mode']]) {
      assert.throws(() => api.htmlToText('<p>x</p>', options), (e) => e instanceof api.SimHashError
        && e.code === 'InvalidOption' && e.message.includes(shown), JSON.stringify(options));
    }
    assert.equal(api.htmlToText('<p>x</p>', { content: 'main' }), 'x');
  });
}
