// Language negotiation: the `lang` parameter, then Accept-Language with
// q-values, then English.
import t from 'tap';
import { fromAcceptLanguage, negotiateLanguage } from '../../src/i18n/index.ts';

t.test('Accept-Language', async (t) => {
  t.equal(fromAcceptLanguage('pl-PL,pl;q=0.9,en;q=0.8'), 'pl');
  t.equal(fromAcceptLanguage('de-DE, cs;q=0.5, ru;q=0.7'), 'ru', 'highest q among known languages');
  t.equal(fromAcceptLanguage('en;q=0.5, ru;q=0.5'), 'en', 'a tie goes to the first listed');
  t.equal(fromAcceptLanguage('ru;q=0, cs'), 'cs', 'q=0 means not acceptable');
  t.equal(fromAcceptLanguage('de, fr'), null, 'none known');
  t.equal(fromAcceptLanguage('*'), 'en');
  t.equal(fromAcceptLanguage('CS-cz'), 'cs', 'case-insensitive');
  t.equal(fromAcceptLanguage(';;;,,q=x'), null, 'garbage is no language');
});

t.test('negotiateLanguage', async (t) => {
  t.equal(negotiateLanguage({}), 'en');
  t.equal(negotiateLanguage({ lang: 'ru', acceptLanguage: 'pl' }), 'ru', 'the parameter wins');
  t.equal(negotiateLanguage({ lang: 'de', acceptLanguage: 'pl' }), 'pl', 'an unknown parameter falls through to the header');
  t.equal(negotiateLanguage({ lang: 'xx' }), 'en', 'English when unknown');
  t.equal(negotiateLanguage({ acceptLanguage: 'cs-CZ' }), 'cs');
});
