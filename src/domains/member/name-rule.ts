// Owns the one rule for new member names (people and agents): a bounded run of letters, digits and `-_.`, all letters of one script, and the confusable skeleton (UTS #39) names are unique by.
import { createHash } from 'node:crypto';
// unhomoglyph 1.0.6 (nodeca; the confusables mapping matrix-js-sdk uses for display names): Unicode's confusables.txt
// (v13.0.0) as a per-code-point map, pinned in package.json. skeleton() below adds the NFD steps UTS #39 defines.
import unhomoglyph from 'unhomoglyph';
import { AppError } from '../../shared/errors.js';
import { nameKey } from './name-fold.js';

/** Code points a new name holds (people and agents alike); names stored before the rule keep working as they are. */
export const NAME_RULE_MAX = 64;

const ALLOWED = /^[\p{L}\p{M}\p{Nd}._-]+$/u;
const FIRST = /^[\p{L}\p{Nd}]/u;
/** Default-ignorable code points (variation selectors, the Hangul filler letter…) never show, so a name never holds one. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
/** A mark must sit on a letter, and at most two stack (no zalgo towers over the next line). */
const LOOSE_MARK = /(^|[^\p{L}\p{M}])\p{M}|\p{M}{3}/u;

/** Every script of Unicode 15 (what Node 20's regular expressions know), by its property value name. */
const SCRIPTS = `Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali Bhaiksuki Bopomofo
Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham Cherokee Chorasmian Coptic Cuneiform Cypriot
Cypro_Minoan Cyrillic Deseret Devanagari Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Georgian Glagolitic
Gothic Grantha Greek Gujarati Gunjala_Gondi Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic
Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kawi Kayah_Li Kharoshthi Khitan_Small_Script Khmer Khojki
Khudawadi Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi
Medefaidrin Meetei_Mayek Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani Myanmar Nabataean Nag_Mundari
Nandinagari New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic Old_North_Arabian Old_Permic
Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician
Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese
Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangsa Tangut Telugu Thaana Thai Tibetan Tifinagh Tirhuta Toto
Ugaritic Vai Vithkuqi Wancho Warang_Citi Yezidi Yi Zanabazar_Square`
  .split(/\s+/)
  .map((s) => ({ name: s, re: new RegExp(`^\\p{Script_Extensions=${s}}$`, 'u') }));
const COMMON = /^[\p{Script=Common}\p{Script=Inherited}]$/u;
/** UTS #39 augmented script sets: Japanese, Korean and Chinese writing mix Han with their own scripts, one script each. */
const AUGMENT: Record<string, string[]> = { Han: ['Jpan', 'Kore', 'Hanb'], Hiragana: ['Jpan'], Katakana: ['Jpan'], Hangul: ['Kore'], Bopomofo: ['Hanb'] };

/** The scripts `ch` may belong to ('any' for digits, marks and other Common/Inherited characters), or undefined for an unknown script. */
function scriptsOf(ch: string): Set<string> | 'any' | undefined {
  const found = SCRIPTS.filter((s) => s.re.test(ch)).flatMap((s) => [s.name, ...(AUGMENT[s.name] ?? [])]);
  if (found.length > 0) return new Set(found);
  return COMMON.test(ch) ? 'any' : undefined;
}

const bad = (field: string, why: string) =>
  new AppError('validation_failed', `${field} ${why}: a name is 1 to ${NAME_RULE_MAX} letters, digits, '-', '_' or '.', starts with a letter or digit, and uses one script`);

/**
 * The name a new member (or a rename) gets, in NFC. Security invariant: one rule for people and agents: a bounded run of
 * letters, digits and `-_.` (no space, parenthesis, colon or backtick, so no name reads like prompt structure), no
 * invisible character, every letter of one script (UTS #39 single-script, so no Cyrillic "о" inside a Latin word).
 */
export function checkNewName(input: string, field = 'name'): string {
  const name = input.normalize('NFC');
  const cps = [...name];
  if (cps.length < 1 || cps.length > NAME_RULE_MAX) throw bad(field, `must be 1 to ${NAME_RULE_MAX} characters`);
  if (!ALLOWED.test(name) || INVISIBLE.test(name)) throw bad(field, 'holds a character outside the rule');
  if (!FIRST.test(name)) throw bad(field, 'must start with a letter or digit');
  if (LOOSE_MARK.test(name)) throw bad(field, 'holds a combining mark not on a letter');
  let common: Set<string> | undefined;
  for (const ch of new Set(cps)) {
    const s = scriptsOf(ch);
    if (s === undefined) throw bad(field, 'holds a letter of a script this server does not know');
    if (s === 'any') continue;
    common = common === undefined ? s : new Set([...common].filter((x) => s.has(x)));
    if (common.size === 0) throw bad(field, 'mixes scripts');
  }
  return name;
}

/** UTS #39 skeleton: NFD, each code point replaced by its confusables.txt prototype, NFD again. */
export function skeleton(s: string): string {
  return unhomoglyph(s.normalize('NFD')).normalize('NFD');
}

/**
 * When two names are one: their skeletons agree after case, width and invisibles are folded (nameKey); fold, skeleton,
 * fold, skeleton, so a prototype that folds again (`Ο` → `O` → `o`) still meets. Case folds first, so `Ian` is `ian`
 * (not `lan`). Equal nameKeys give equal identities: this is stricter than the name_key rule it extends.
 */
export function nameIdentity(name: string): string {
  return skeleton(nameKey(skeleton(nameKey(name))));
}

/** The stored form: a fixed 43-character digest (members.name_skeleton). */
export function nameIdentityDigest(name: string): string {
  return createHash('sha256').update(nameIdentity(name)).digest('base64url');
}
