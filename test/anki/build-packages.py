"""Builds Anki packages with the real Anki's own code (PyPI `anki`), for the import tests.

    python build-packages.py OUT_DIR

Makes a collection with two decks (one nested) and an empty one, a note type "Vocabulary" with three fields
(Expression, Sentence, Meaning) and a Basic note, answers cards through Anki's scheduler (so the
revlog holds real reviews), suspends one card and buries another, then exports it as:
  legacy.apkg   (collection.anki21: Anki's legacy export)
  modern.apkg   (collection.anki21b: zstd, Anki >= 2.1.50)
  legacy.colpkg, modern.colpkg (the whole collection)
and writes expected.json: each note's fields, deck and card state as Anki has them.
"""

import json
import os
import sys
import tempfile

from anki.collection import Collection, ExportAnkiPackageOptions

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
work = tempfile.mkdtemp(prefix="lcs-anki-")
col = Collection(os.path.join(work, "collection.anki2"))

mm = col.models
vocab = mm.new("Vocabulary")
for name in ("Expression", "Sentence", "Meaning"):
    mm.add_field(vocab, mm.new_field(name))
template = mm.new_template("Recognition")
template["qfmt"] = "{{Expression}}<br>{{Sentence}}"
template["afmt"] = "{{FrontSide}}<hr id=answer>{{Meaning}}"
mm.add_template(vocab, template)
mm.add(vocab)
vocab = mm.by_name("Vocabulary")
basic = mm.by_name("Basic")

idioms = col.decks.id("English::Idioms")
phrasal = col.decks.id("Phrasal verbs")
col.decks.id("Empty deck")  # a deck with no notes

NOTES = [
    (idioms, vocab, ["break the ice", "She told a joke to <b>break the ice</b> at the meeting.", "briser la glace"]),
    (idioms, vocab, ["a piece of cake", "The exam was <i>a piece of cake</i>.", "un jeu d'enfant"]),
    (idioms, vocab, ["under the weather", "I'm feeling a bit under the weather today.", "pas dans son assiette"]),
    (idioms, vocab, ["spill the beans", "Who spilled the beans about the party?", "vendre la mèche"]),
    (phrasal, vocab, ["give up", "Don't give up before the end.", "abandonner"]),
    (phrasal, vocab, ["look after", "Can you look after my cat this weekend?", "s'occuper de"]),
    (phrasal, basic, ["put off", "remettre à plus tard"]),
]
for deck, model, fields in NOTES:
    note = col.new_note(model)
    for i, value in enumerate(fields):
        note.fields[i] = value
    col.add_note(note, deck)

# Real reviews through the scheduler: each deck's first cards answered (Good, then Easy), one failed.
ANSWERS = {"break the ice": [3, 3], "a piece of cake": [4], "under the weather": [1, 3], "give up": [3, 3, 4], "spill the beans": [3], "look after": [3]}
for deck in (idioms, phrasal):
    col.decks.select(deck)
    for _ in range(20):
        card = col.sched.getCard()
        if card is None:
            break
        expression = card.note().fields[0]
        if expression not in ANSWERS or not ANSWERS[expression]:
            col.sched.bury_cards([card.id], manual=True)  # out of the way for now
            continue
        ease = ANSWERS[expression].pop(0)
        col.sched.answerCard(card, ease)
    col.sched.unbury_deck(deck)

def card_of(expression):
    nid = col.find_notes(f'"Expression:{expression}"' if expression != "put off" else '"Front:put off"')[0]
    return col.get_card(col.card_ids_of_note(nid)[0])

# One suspended, one buried, each with a review: they keep that state.
col.sched.suspend_cards([card_of("spill the beans").id])
col.sched.bury_cards([card_of("look after").id], manual=True)

expected = []
for deck, model, fields in NOTES:
    card = card_of(fields[0])
    revlog = col.db.all("select id, ease from revlog where cid = ? order by id", card.id)
    expected.append(
        {
            "expression": fields[0],
            "fields": fields,
            "noteType": model["name"],
            "deck": col.decks.name(card.did),
            "cardType": card.type,
            "queue": card.queue,
            "reviews": len(revlog),
            "revlog": revlog,
        }
    )

col.export_anki_package(
    out_path=os.path.join(out, "modern.apkg"),
    options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=False, legacy=False),
    limit=None,
)
col.export_anki_package(
    out_path=os.path.join(out, "legacy.apkg"),
    options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=False, legacy=True),
    limit=None,
)
# A collection package closes the collection: opened again for the second.
col.export_collection_package(os.path.join(out, "modern.colpkg"), include_media=False, legacy=False)
col = Collection(os.path.join(work, "collection.anki2"))
col.export_collection_package(os.path.join(out, "legacy.colpkg"), include_media=False, legacy=True)

with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump({"notes": expected}, f, ensure_ascii=False, indent=1)
print(out)
