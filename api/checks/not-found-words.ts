// How a "not found" page names itself, in the 23 languages CTPO speaks: the words a site's title or
// main heading uses when it answers a missing address with a page. Source: the wording of the
// default not-found pages of common site builders (WordPress's "Page not found", "Nothing found"
// and "That page can't be found", Drupal's "Page not found") and RFC 9110's reason phrase for 404,
// "Not Found" (§15.5.5); their translations into our languages were written for CTPO, with the
// forms sites commonly use. Matched against a normalised title or heading (lower case, NFKC,
// straight apostrophes), whole phrases only.

/** Phrases that say "not found", by language (several languages share a script's phrases). */
export const NOT_FOUND_PHRASES: Readonly<Record<string, readonly string[]>> = {
  en: ['page not found', 'not found', "page can't be found", 'page cannot be found', 'page could not be found', "page doesn't exist", 'page does not exist', 'nothing found', "can't be found", 'cannot be found', 'could not be found'],
  ar: ['الصفحة غير موجودة', 'لم يتم العثور على الصفحة', 'الصفحة المطلوبة غير موجودة', 'غير موجودة', 'غير موجود'],
  cy: ['tudalen heb ei chanfod', "heb ddod o hyd i'r dudalen", "nid yw'r dudalen yn bodoli", 'heb ei chanfod', 'heb ei ganfod'],
  da: ['siden blev ikke fundet', 'side ikke fundet', 'siden findes ikke', 'ikke fundet'],
  de: ['seite nicht gefunden', 'die seite wurde nicht gefunden', 'seite existiert nicht', 'nicht gefunden'],
  es: ['página no encontrada', 'no se encontró la página', 'no se ha encontrado la página', 'la página no existe', 'no encontrada', 'no encontrado'],
  fr: ['page introuvable', 'page non trouvée', "la page n'existe pas", 'page inexistante', 'introuvable', 'non trouvée'],
  haw: ["ʻaʻole i loaʻa ka ʻaoʻao", "ʻaʻole i loaʻa"],
  hi: ['पृष्ठ नहीं मिला', 'पेज नहीं मिला', 'पृष्ठ मौजूद नहीं है', 'नहीं मिला'],
  ja: ['ページが見つかりません', 'お探しのページは見つかりませんでした', 'ページは存在しません', '見つかりません'],
  ko: ['페이지를 찾을 수 없습니다', '요청하신 페이지를 찾을 수 없습니다', '페이지가 존재하지 않습니다', '찾을 수 없습니다'],
  mi: ['kāore i kitea te whārangi', 'kāore i kitea'],
  nl: ['pagina niet gevonden', 'deze pagina bestaat niet', 'pagina bestaat niet', 'niet gevonden'],
  pt: ['página não encontrada', 'a página não existe', 'não encontrada', 'não encontrado'],
  sv: ['sidan hittades inte', 'sidan finns inte', 'hittades inte'],
  tr: ['sayfa bulunamadı', 'sayfa mevcut değil', 'bulunamadı'],
  zh: ['页面未找到', '找不到页面', '页面不存在', '找不到網頁', '找不到頁面', '網頁不存在', '頁面不存在', '未找到'],
};

/**
 * Words that often stand beside the phrase in a not-found title ("Oops! 404 – Page not found"),
 * and nothing else: a title with any other word ("How to fix page not found errors") is about
 * something else.
 */
export const NOT_FOUND_COMPANIONS: ReadonlySet<string> = new Set([
  '404', '410', 'error', 'errors', 'oops', 'whoops', 'sorry', 'uh', 'oh', 'no', 'the', 'this', 'that', 'page', 'we', "we're", 'http', 'status',
  'erreur', 'désolé', 'oups', 'la', 'le', 'cette', 'fehler', 'hoppla', 'die', 'diese', 'fout', 'oeps', 'de', 'deze', 'el', 'la', 'lo', 'sentimos', 'ups', 'uy', 'esta',
  'erro', 'desculpe', 'a', 'esta', 'fel', 'hoppsan', 'fejl', 'ups', 'hata', 'üzgünüz', 'gwall', 'mae', "ddrwg", 'gennym', 'hapa', 'hē', 'aroha', 'mai', 'त्रुटि', 'خطأ', 'عذرًا', 'エラー', '오류', '错误', '錯誤',
]);
