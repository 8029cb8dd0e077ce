"""Small files in the real formats of torchtext 0.9's datasets, made in memory, with the items
each dataset must yield from them (for tests/text and tests/parity)."""
import csv
import gzip
import io
import json
import tarfile
import zipfile
from xml.sax.saxutils import escape

__all__ = ["csv_file", "tar_bytes", "zip_bytes", "gz_bytes", "CLASSIFICATION_ROWS", "classification_items",
           "imdb_archive", "wikitext_archive", "WIKI_LINES", "ptb_files", "udpos_archive", "conll_files",
           "squad_file", "iwslt_archive"]


def tar_bytes(members, mode="w:gz"):
    """A tar archive of (name, bytes) members; a name ending in '/' is a directory."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as tar:
        for name, data in members:
            info = tarfile.TarInfo(name.rstrip("/"))
            if name.endswith("/"):
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def zip_bytes(members):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(name, data)
    return out.getvalue()


def gz_bytes(data):
    return gzip.compress(data, mtime=0)


# ---------------------------------------------------------------- CSV classification

# (label, title, description): quotes, commas and newlines inside fields, non-ASCII text
CLASSIFICATION_ROWS = [
    (3, "Wall St. Bears Claw Back Into the Black (Reuters)",
     'Reuters - Short-sellers, Wall Street\'s "dwindling"\\band.'),
    (1, "Commas, everywhere, in the title", "A description\nthat spans\ntwo line breaks"),
    (2, 'He said ""hi""', "Plain text"),
    (4, "Café naïve résumé", "Ünïcödé, “curly quotes” and – dashes"),
    (2, "", "An empty title"),
]


def csv_file(rows, columns=3):
    """CSV text with every field quoted, like the char-CNN datasets' files."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for row in rows:
        writer.writerow([str(row[0])] + list(row[1:columns]))
    return out.getvalue().encode("utf-8")


def classification_items(rows):
    return [(label, " ".join(text)) for label, *text in rows]


# ---------------------------------------------------------------- IMDB

def imdb_archive():
    """aclImdb_v1.tar.gz: aclImdb/<split>/{pos,neg,unsup}/<id>_<rating>.txt plus the extra files."""
    reviews = {
        ("train", "pos", "0_9.txt"): "A wonderful film.<br /><br />Really.",
        ("train", "neg", "1_2.txt"): "Dull, \"boring\", long.",
        ("train", "pos", "2_10.txt"): "Loved it",
        ("test", "neg", "3_1.txt"): "Awful.",
        ("test", "pos", "4_8.txt"): "Good one.",
    }
    members = [("aclImdb/", b""), ("aclImdb/README", b"readme"), ("aclImdb/imdb.vocab", b"the\nand\n"),
               ("aclImdb/train/", b""), ("aclImdb/train/urls_pos.txt", b"http://x/pos"),
               ("aclImdb/train/labeledBow.feat", b"9 0:1"), ("aclImdb/train/unsup/", b""),
               ("aclImdb/train/unsup/9_0.txt", b"unlabelled review")]
    for (split, label, name), text in reviews.items():
        members.append((f"aclImdb/{split}/{label}/{name}", text.encode("utf-8")))
    expected = {split: [(label, text) for (s, label, _), text in reviews.items() if s == split]
                for split in ("train", "test")}
    return tar_bytes(members), expected


# ---------------------------------------------------------------- language modeling

WIKI_LINES = {
    "train": [" \n", " = Valkyria Chronicles III = \n", " \n", " Senjō no Valkyria 3 : <unk> Chronicles . \n"],
    "valid": [" \n", " = Homarus gammarus = \n"],
    "test": [" \n", " = Robert <unk> = \n", " \n"],
}


def wikitext_archive(folder):
    members = [(f"{folder}/", b"")]
    for split, lines in WIKI_LINES.items():
        members.append((f"{folder}/wiki.{split}.tokens", "".join(lines).encode("utf-8")))
    return zip_bytes(members)


def ptb_files():
    lines = {"train": [" aer banknote berlitz \n", " pierre <unk> N years old \n"],
             "valid": [" consumers may want \n"], "test": [" no it was n't black monday \n"]}
    return {split: "".join(v).encode() for split, v in lines.items()}, lines


# ---------------------------------------------------------------- sequence tagging

_UD_SENTENCES = {
    "train": [[["Al", "-", "Zaman"], ["PROPN", "PUNCT", "PROPN"], ["NNP", "HYPH", "NNP"]],
              [["What", "if"], ["PRON", "SCONJ"], ["WP", "IN"]]],
    "dev": [[["From", "the"], ["ADP", "DET"], ["IN", "DT"]]],
    "test": [[["What", "?"], ["PRON", "PUNCT"], ["WP", "."]]],
}


def _iob_text(sentences, separator, trailing_blank=True):
    blocks = ["".join(separator.join(cols) + "\n" for cols in zip(*sentence)) for sentence in sentences]
    return ("\n".join(blocks) + ("\n" if trailing_blank else "")).encode("utf-8")


def udpos_archive():
    members = [("en-ud-v2/", b""), ("en-ud-v2/LICENSE.txt", b"license"), ("en-ud-v2/README.txt", b"readme")]
    for split, sentences in _UD_SENTENCES.items():
        members.append((f"en-ud-v2/en-ud-tag.v2.{split}.txt", _iob_text(sentences, "\t")))
    expected = {"train": _UD_SENTENCES["train"], "valid": _UD_SENTENCES["dev"], "test": _UD_SENTENCES["test"]}
    return zip_bytes(members), expected


def conll_files():
    sentences = {"train": [[["Confidence", "in"], ["NN", "IN"], ["B-NP", "B-PP"]],
                           [["Rockwell", "said"], ["NNP", "VBD"], ["B-NP", "B-VP"]]],
                 "test": [[["Rockwell"], ["NNP"], ["B-NP"]]]}
    # the last sentence of train has no blank line after it
    files = {split: gz_bytes(_iob_text(s, " ", trailing_blank=(split != "train"))) for split, s in sentences.items()}
    return files, sentences


# ---------------------------------------------------------------- SQuAD

def squad_file(version):
    qas = [{"id": "1", "question": "Who?", "answers": [{"text": "Saint Bernadette", "answer_start": 5},
                                                        {"text": "Bernadette", "answer_start": 11}]},
           {"id": "2", "question": "What \"quote\"?", "answers": [{"text": "a", "answer_start": 0}]}]
    if version == 2:
        qas.append({"id": "3", "question": "Unanswerable?", "answers": [], "is_impossible": True})
    data = {"version": f"v{version}", "data": [
        {"title": "T1", "paragraphs": [{"context": "Ask Saint Bernadette.", "qas": qas[:2]}]},
        {"title": "T2", "paragraphs": [{"context": "Naïve context", "qas": qas[2:]}]},
    ]}
    expected = [("Ask Saint Bernadette.", "Who?", ["Saint Bernadette", "Bernadette"], [5, 11]),
                ("Ask Saint Bernadette.", 'What "quote"?', ["a"], [0])]
    if version == 2:
        expected.append(("Naïve context", "Unanswerable?", [""], [-1]))
    return json.dumps(data).encode("utf-8"), expected


# ---------------------------------------------------------------- IWSLT

def _tags_file(sentences):
    head = ["<url>http://www.ted.com/talks/x.html</url>", "<keywords>talks, science</keywords>",
            "<speaker>Someone</speaker>", "<talkid>1</talkid>", "<title>A title</title>",
            "<description>TED Talk Subtitles</description>", "<reviewer></reviewer>", "<translator></translator>"]
    return ("\n".join(head + [f"  {s}  " for s in sentences]) + "\n").encode("utf-8")


def _xml_file(set_id, lang, sentences, ref):
    kind = "refset" if ref else "srcset"
    segs = "\n".join(f'<seg id="{i + 1}"> {escape(s)} </seg>' for i, s in enumerate(sentences))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<mteval>\n<{kind} setid="{set_id}" srclang="{lang}">\n'
            f'<doc docid="535" genre="lectures">\n<url>http://x</url>\n<description>d</description>\n'
            f'<talkid>535</talkid>\n<title>t</title>\n{segs}\n</doc>\n</{kind}>\n</mteval>\n').encode("utf-8")


def iwslt_archive(year, src="de", tgt="en"):
    """The outer archive of IWSLT2016 (2016-01.tgz) or IWSLT2017 (2017-01-trnmted.tgz), with
    one pair's inner archive (and, for 2016, another pair's) in the real layout."""
    sentences = {"train": [f"Satz {i} & mehr." for i in range(3)], "valid": ["Hallo Welt."],
                 "test": ["Erster Test.", "Zweiter <Test>."]}

    def translated(lines):
        return [line.replace("Satz", "Sentence") + " (en)" for line in lines]

    pair = f"{src}-{tgt}"
    sets = ("tst2013", "tst2014", "dev2010") if year == 16 else ("dev2010", "tst2010")
    folder = pair if year == 16 else "DeEnItNlRo-DeEnItNlRo"
    inner = [(f"{folder}/", b""), (f"{folder}/train.tags.{pair}.{src}", _tags_file(sentences["train"])),
             (f"{folder}/train.tags.{pair}.{tgt}", _tags_file(translated(sentences["train"])))]
    for set_id in sets:
        lines = sentences["valid"] if set_id in ("tst2013", "dev2010") else sentences["test"]
        for lang, ref in ((src, False), (tgt, True)):
            text = lines if lang == src else translated(lines)
            inner.append((f"{folder}/IWSLT{year}.TED.{set_id}.{pair}.{lang}.xml",
                          _xml_file(f"IWSLT{year}.TED.{set_id}", lang, text, ref)))
    inner_bytes = tar_bytes(inner)
    if year == 16:
        top = "2016-01"
        members = [(f"{top}/", b""), (f"{top}/texts/{src}/{tgt}/{pair}.tgz", inner_bytes),
                   (f"{top}/texts/en/fr/en-fr.tgz", tar_bytes([("en-fr/README", b"other pair")]))]
    else:
        top = "2017-01-trnmted"
        members = [(f"{top}/", b""), (f"{top}/texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo.tgz", inner_bytes)]
    expected = {split: [(s + "\n", t + "\n") for s, t in zip(lines, translated(lines))]
                for split, lines in sentences.items()}
    return tar_bytes(members), expected
