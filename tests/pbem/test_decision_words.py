"""Issue 15 point 5: a decision is data (its action name), phrased by the ruleset's
`decisions` and put into sentences by one function per sentence form (pbem.words). Every
decision of both rulesets is checked in every sentence it appears in: status, the reminder's
subject and body, the commit message, the digest and the reports' "waiting" and menu lines.
Broken sentences seen in play: "waiting for coeur to where to place the agent", "Your deadline
to where to place the agent passed", "the defaults apply: end.;", "a islamic pirate",
"waiting for ann to choose your capital"."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.core.words import article, render
from pbem import api, rulesets, words
from pbem.delivery import gitplay
from pbem.delivery.digests import digest
from pbem.delivery.mail import Book, MailSettings
from pbem.orders.signatures import parse_public_key, write_keypair
from pbem.pipeline import opening, queries
from pbem.views import report
from pbem.views.model import report_model
from tests.pbem.test_mail_helpers import make_game

# A phrase after "to" must start with a verb; these words start a question or a noun instead.
NOT_A_VERB = {"where", "which", "what", "whether", "who", "the", "a", "an", "your", "their",
              "golden"}
BROKEN = re.compile(r"\b(waiting for|deadline|must) [^.]*?\bto (where|which|what|whether)\b|"
                    r"\bto golden\b|\.;|\.\.|\ba [aeiou]\w|\bwaiting for [^.]*\byour\b",
                    re.IGNORECASE)
ALL = [(name, action) for name in ("pax", "aor")
       for action in sorted(rulesets.ruleset_for(name).actions)]


def check(sentence: str) -> None:
    assert "{" not in sentence and "}" not in sentence, sentence
    assert BROKEN.search(sentence) is None, sentence


@pytest.mark.parametrize(("ruleset", "action"), ALL)
def test_every_decision_reads_after_to_in_both_persons(ruleset: str, action: str) -> None:
    for you in (True, False):
        phrase = words.decision_phrase(ruleset, action, you=you)
        assert phrase.split()[0] not in NOT_A_VERB and phrase[0].islower(), phrase
        assert ("their" not in phrase.split()) if you else ("your" not in phrase.split())
    check(words.waiting_text(["Ann"], ruleset, action))
    check(words.waiting_text(["Ann", "Bob"], ruleset, action))
    check(words.must_text("Ann", ruleset, action))
    check(words.deadline_passed_text(ruleset, action, "Sat 06 Mar 2027 12:00 UTC"))


def test_the_reported_sentences_read_well() -> None:
    assert words.waiting_text(["Ann"], "aor", "capital") == \
        "waiting for Ann to choose their capital"
    assert words.deadline_passed_text("pax", "agent", "Monday") == \
        "Your deadline to choose where to place the agent passed on Monday."
    assert words.must_text("Ann", "aor", "capital") == "Ann, you must choose your capital"
    timeout = words.say({"msg": "pbem.timeout", "args": {"player": "coeur", "lines": ["end"]}})
    assert timeout == "Coeur did not answer in time, so the default answer 'end' was applied."
    two = words.say({"msg": "pbem.timeout", "args": {"player": "ann", "lines": ["a", "b"]}})
    assert two.endswith("the default answers 'a' and 'b' were applied.")
    assert words.sentences([timeout, two]).count(".;") == 0
    assert article("islamic pirate") == "an islamic pirate" and article("rook") == "a rook"
    pax = rulesets.ruleset_for("pax").messages
    placed = render({"msg": "pax.agent.place.border",
                     "args": {"bank": "coeur", "token": "islamic pirate", "border": "X"}}, pax)
    assert placed == "Coeur places an islamic pirate on X."


@pytest.fixture
def both(tmp_path: Path) -> dict[str, Path]:
    """A Pax game and an Age of Renaissance game, every player with an address."""
    (tmp_path / "pax").mkdir()
    keys = []
    for name in ("ann", "bob", "cy"):
        write_keypair(tmp_path / name, name, f"{name}@example.org")
        keys.append(parse_public_key((tmp_path / f"{name}.pub").read_text()))
    aor = tmp_path / "aor.yaml"
    api.new_game(aor, keys, game_id="aor", ruleset_name="aor", seed_text="words",
                 options={"end": "epoch1"})
    return {"pax": make_game(tmp_path / "pax"), "aor": aor}


def test_every_decision_in_every_sentence_that_names_it(
        both: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each decision put on the agenda of a real game, then every place that names it. The
    board itself is the game's real one (a made-up pending node has no arguments to draw)."""
    settings = MailSettings(sender="host@example.org")
    for ruleset, path in both.items():
        start = opening.open_game(path, head_only=False)
        acting = queries.decision_of(start)[0][0]
        models = {viewer: report_model(start, viewer) for viewer in (None, acting)}
        monkeypatch.setattr("pbem.delivery.digests.report_model",
                            lambda game, reader, shown=models[None], **_: shown)
        for action in sorted(rulesets.ruleset_for(ruleset).actions):
            game = opening.open_game(path, head_only=False)
            game.gf.agenda[0]["action"] = action
            reader = str(game.gf.agenda[0].get("player") or game.gf.player_ids()[0])
            owed, decision = queries.decision_of(game)
            check(f"waiting for {', '.join(owed)} to {decision}")  # `pbem status`, `new`
            assert decision == words.decision_phrase(ruleset, action, you=False)
            check(gitplay.commit_message(game.gf, []))
            for viewer, model in models.items():  # the reports' "waiting" and menu lines
                model["decision"] = words.decision_phrase(ruleset, action, you=False)
                if model["menu"]:
                    model["menu"]["decision"] = words.decision_phrase(ruleset, action, you=True)
                for fmt in report.FORMATS:
                    text = report.render(model, fmt)
                    lines = [line for line in text.splitlines()
                             if "aiting for" in line or "you must" in line.lower()]
                    assert lines, (ruleset, fmt, viewer)
                    for line in lines:
                        check(line)
            book = Book(path.with_suffix(".json"), {"sent": {}, "clock": {}, "processed": {},
                                                    "seen": {reader: -1}})
            game.gf.log.append({"seq": 99, "kind": "note", "summary": ["Something."]})
            message = digest(game, reader, book, settings, datetime(2027, 3, 6, tzinfo=UTC))
            assert message is not None
            body = message.get_body(("plain",)).get_content()  # type: ignore[union-attr]
            check(next(line for line in body.splitlines() if line.startswith("Waiting for")))


def test_a_timeout_reads_as_sentences(tmp_path: Path) -> None:
    """`pbem timeout` prints each event as its own sentence: never "end.; ..."."""
    from typer.testing import CliRunner

    from pbem.cli import app

    game = make_game(tmp_path)
    key = ["--key", str(game.parent / "max.key")]  # a moderated game: the moderator's call
    assert CliRunner().invoke(app, ["deadlines", str(game), "--nmr", "skip", *key]).exit_code == 0
    result = CliRunner().invoke(app, ["timeout", str(game), "--force", *key])
    assert result.exit_code == 0, result.stderr
    assert "did not answer in time, so the default answer" in result.stdout
    assert ".;" not in result.stdout and ";" not in result.stdout.split(": ", 1)[1]
