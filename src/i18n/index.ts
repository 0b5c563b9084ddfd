// Languages and message formatting (pure: no HTTP, no database). Games supply
// catalogues and messages; the service formats them in the caller's language.
export { DEFAULT_LANGUAGE, LANGUAGES, fromAcceptLanguage, languageOf, negotiateLanguage, type Language } from './languages.ts';
export { loadCatalogues, type Catalogue, type Catalogues } from './catalogue.ts';
export { Formatter, refsOf } from './format.ts';
