"""The engine's word lists (crates/citelens-engine/data/word_lists.json), for training code that
must use the same words as the rules: one home for each list, read here and by the engine."""
import json
from pathlib import Path

WORD_LISTS_FILE = Path(__file__).resolve().parent.parent / "crates/citelens-engine/data/word_lists.json"


def load(name):
    """The list `name` as the engine reads it: strings, or rows for `units` and `number_words`."""
    lists = json.loads(WORD_LISTS_FILE.read_text(encoding="utf-8"))
    if name not in lists or name.startswith("_"):
        raise KeyError(f"{WORD_LISTS_FILE.name} has no list {name!r}")
    return lists[name]["words"]
