"""The IWSLT machine translation datasets (TED talks): IWSLT2016 and IWSLT2017.

The download is an archive of per-language-pair archives; the pair's training files are
'.tags' files (talk metadata lines mixed with the sentences) and the dev/test sets are XML
(<doc><seg>sentence</seg>...). The files a split needs are cleaned into plain one-sentence-per-
line text beside them (once, atomically), then read line by line in pairs.
"""
import functools
import io
import os
import xml.etree.ElementTree as ET

from hub._atomic import atomic_open
from text.datasets import _tables
from text.datasets._common import dataset_function, fetch, find_file, read_lines
from text.datasets._raw import RawTextIterableDataset
from text.utils import extract_archive

__all__ = ["IWSLT2016", "IWSLT2017"]

_SPLITS = ("train", "valid", "test")
_TAG_MARKERS = ("<url", "<keywords", "<talkid", "<description", "<reviewer", "<translator", "<title", "<speaker",
                "<doc", "</doc")


def _per_set(counts):
    """{set: {pair: lines}} shared by the valid and test splits."""
    return {"valid": counts, "test": counts}


_IWSLT2016_SETS = {
    "dev2010": {("ar", "en"): 887, ("de", "en"): 887, ("en", "fr"): 887, ("cs", "en"): 480},
    "tst2010": {("ar", "en"): 1569, ("de", "en"): 1565, ("en", "fr"): 1664, ("cs", "en"): 1511},
    "tst2011": {("ar", "en"): 1199, ("de", "en"): 1433, ("en", "fr"): 818, ("cs", "en"): 1013},
    "tst2012": {("ar", "en"): 1702, ("de", "en"): 1700, ("en", "fr"): 1124, ("cs", "en"): 1385},
    "tst2013": {("ar", "en"): 1169, ("de", "en"): 993, ("en", "fr"): 1026, ("cs", "en"): 1327},
    "tst2014": {("ar", "en"): 1107, ("de", "en"): 1305, ("en", "fr"): 1305},
}
_tables.register("IWSLT2016", "https://drive.google.com/uc?id=1l5y6Giag9aRPwGtuZHswh3w5v3qEz8D8",
                 "c393ed3fc2a1b0f004b3331043f615ae",
                 {"train": {"train": {("ar", "en"): 224126, ("de", "en"): 196884, ("en", "fr"): 220400,
                                      ("cs", "en"): 114390}},
                  **_per_set(_IWSLT2016_SETS)})

_IWSLT2017_PAIRS = [("en", "nl"), ("de", "en"), ("en", "it"), ("en", "ro"), ("de", "ro"), ("nl", "ro"), ("it", "ro"),
                    ("de", "nl"), ("de", "it"), ("it", "nl")]
_IWSLT2017_SETS = {
    "dev2010": dict(zip(_IWSLT2017_PAIRS, (1003, 888, 929, 914, 912, 913, 914, 1001, 923, 1001))),
    "tst2010": dict(zip(_IWSLT2017_PAIRS, (1777, 1568, 1566, 1678, 1677, 1680, 1643, 1779, 1567, 1669))),
}
_tables.register("IWSLT2017", "https://drive.google.com/uc?id=12ycYSzLIG253AFN35Y6qoyf9wtkOjakp",
                 "aca701032b1c4411afc4d9fa367796ba",
                 {"train": {"train": dict(zip(_IWSLT2017_PAIRS, (237240, 206112, 231619, 220538, 201455, 206920,
                                                                 217551, 213628, 205465, 233415)))},
                  **_per_set(_IWSLT2017_SETS)})

# year: (archive, the inner archive of a pair (src, tgt) relative to root, target languages per source,
#        valid/test sets, sets missing for some pairs)
_EDITIONS = {
    "IWSLT2016": ("2016-01.tgz", lambda s, t: os.path.join("2016-01", "texts", s, t, f"{s}-{t}.tgz"),
                  {"en": ("ar", "de", "fr", "cs"), "ar": ("en",), "fr": ("en",), "de": ("en",), "cs": ("en",)},
                  tuple(_IWSLT2016_SETS), {("en", "cs"): ("tst2014",), ("cs", "en"): ("tst2014",)}),
    "IWSLT2017": ("2017-01-trnmted.tgz",
                  lambda s, t: os.path.join("2017-01-trnmted", "texts", "DeEnItNlRo", "DeEnItNlRo",
                                            "DeEnItNlRo-DeEnItNlRo.tgz"),
                  {"en": ("nl", "de", "it", "ro"), "ro": ("de", "en", "nl", "it"), "de": ("ro", "en", "nl", "it"),
                   "it": ("en", "nl", "de", "ro"), "nl": ("de", "en", "it", "ro")},
                  tuple(_IWSLT2017_SETS), {}),
}


def _check_language_pair(name, language_pair):
    targets = _EDITIONS[name][2]
    if not isinstance(language_pair, (list, tuple)):
        raise ValueError(f"language_pair must be list or tuple but got {type(language_pair)} instead")
    if len(language_pair) != 2:
        raise ValueError("language_pair must contain only 2 elements: src and tgt language respectively")
    src, tgt = language_pair
    if src not in targets:
        raise ValueError(f"src_language '{src}' is not valid. Supported source languages are {list(targets)}")
    if tgt not in targets[src]:
        raise ValueError(f"tgt_language '{tgt}' is not valid for give src_language '{src}'. "
                         f"Supported target language are {list(targets[src])}")
    return src, tgt


def _check_set(name, kind, value, pair):
    sets, missing = _EDITIONS[name][3], _EDITIONS[name][4].get(pair, ())
    if value not in sets or value in missing:
        raise ValueError(f"{kind} '{value}' is not valid for given language pair {pair}. Supported sets are "
                         f"{[s for s in sets if s not in missing]}")


def _clean_tags(raw, out):
    with io.open(raw, encoding="utf-8") as f, atomic_open(out, "wb") as dst:
        for line in f:
            if not any(marker in line for marker in _TAG_MARKERS):
                dst.write((line.strip() + "\n").encode("utf-8"))


def _clean_xml(raw, out):
    root = ET.parse(raw).getroot()[0]
    with atomic_open(out, "wb") as dst:
        for doc in root.findall("doc"):
            for seg in doc.findall("seg"):
                dst.write(((seg.text or "").strip() + "\n").encode("utf-8"))


def _cleaned(name, files, raw_name):
    """The plain-text version of the pair's file `raw_name` (.tags or .xml), made if missing."""
    raw = find_file(name, files, raw_name)
    cleaned_name = raw_name[:-len(".xml")] if raw_name.endswith(".xml") else raw_name.replace(".tags", "")
    out = os.path.join(os.path.dirname(raw), cleaned_name)
    if not os.path.exists(out):
        (_clean_xml if raw_name.endswith(".xml") else _clean_tags)(raw, out)
    return out


def _read_pairs(src_path, tgt_path):
    yield from zip(read_lines(src_path), read_lines(tgt_path))


def _iwslt(name, root, split, language_pair, sets):
    src, tgt = _check_language_pair(name, language_pair)
    for kind, value in sets.items():
        _check_set(name, kind, value, (src, tgt))
    archive, inner, year = _EDITIONS[name][0], _EDITIONS[name][1](src, tgt), name[-2:]
    extract_archive(fetch(root, _tables.URLS[name], _tables.MD5[name], archive))
    inner_path = os.path.join(root, inner)
    if not os.path.isfile(inner_path):
        raise RuntimeError(f"{name}: {archive} holds no {inner} for the language pair {src}-{tgt}")
    files = extract_archive(inner_path)
    set_name = {"train": "train", "valid": sets["valid_set"], "test": sets["test_set"]}[split]
    paths = []
    for lang in (src, tgt):
        raw_name = (f"train.tags.{src}-{tgt}.{lang}" if split == "train"
                    else f"IWSLT{year}.TED.{set_name}.{src}-{tgt}.{lang}.xml")
        paths.append(_cleaned(name, files, raw_name))
    num_lines = _tables.NUM_LINES[name][split][set_name][tuple(sorted((src, tgt)))]
    return RawTextIterableDataset(name, num_lines, functools.partial(_read_pairs, *paths))


_TRANSLATION_YIELDS = "(str source sentence, str target sentence), each with its trailing newline."


@dataset_function("IWSLT2016", _SPLITS, "TED talk translations of IWSLT 2016 (2016-01.tgz).", _TRANSLATION_YIELDS,
                  "    language_pair: (source, target), e.g. ('de', 'en') (default).\n"
                  "    valid_set, test_set: the dev/test sets of the valid and test splits: dev2010, tst2010 ... "
                  "tst2014 (default 'tst2013' and 'tst2014').")
def IWSLT2016(root, split, language_pair=("de", "en"), valid_set="tst2013", test_set="tst2014"):
    return _iwslt("IWSLT2016", root, split, language_pair, {"valid_set": valid_set, "test_set": test_set})


@dataset_function("IWSLT2017", _SPLITS, "TED talk translations of IWSLT 2017, multilingual task "
                  "(2017-01-trnmted.tgz); valid is dev2010, test is tst2010.", _TRANSLATION_YIELDS,
                  "    language_pair: (source, target) among de, en, it, nl, ro (default ('de', 'en')).")
def IWSLT2017(root, split, language_pair=("de", "en")):
    return _iwslt("IWSLT2017", root, split, language_pair, {"valid_set": "dev2010", "test_set": "tst2010"})
